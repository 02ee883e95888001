" SPDX-License-Identifier: GPL-3.0-or-later
" Vim/Neovim syntax for Inflight scenes (scenes/LANGUAGE.md).
" Install: copy syntax/ and ftdetect/ into ~/.vim/ (Vim) or ~/.config/nvim/ (Neovim).
if exists("b:current_syntax")
  finish
endif

syn keyword inflightStatement scene set user process note socketpair socket bind listen connect
syn keyword inflightStatement accept send splice recv dup close setsockopt gc expect ask wait
syn keyword inflightBlock repeat spawn variant as
syn keyword inflightValue stream dgram seqpacket classic async graph on off freed alive inflight
syn keyword inflightValue queue error peek oob sequential random global fix collectors nofile seed
syn keyword inflightValue limit check cpus cost autobind candidate garbage embryo answer
syn match inflightOption "\<[a-z_-]\+="
syn match inflightErrno "\<E[A-Z0-9]\+\>"
syn match inflightAddress "@[^ \t,]*"
syn match inflightVariable "\${[^}]*}\|\$[A-Za-z_][A-Za-z0-9_]*"
syn match inflightNumber "\<[0-9][0-9_]*\>"
syn region inflightString start=+"+ skip=+\\\\\|\\"+ end=+"+ oneline
syn match inflightComment "#.*$" contains=@Spell

hi def link inflightStatement Statement
hi def link inflightBlock Repeat
hi def link inflightValue Constant
hi def link inflightOption Identifier
hi def link inflightErrno Special
hi def link inflightAddress Special
hi def link inflightVariable Identifier
hi def link inflightNumber Number
hi def link inflightString String
hi def link inflightComment Comment

setlocal commentstring=#\ %s
let b:current_syntax = "inflight"
