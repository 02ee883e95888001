" SPDX-License-Identifier: GPL-3.0-or-later
" Inflight scenes: *.scn, or any file whose first statement is scene "…".
autocmd BufRead,BufNewFile *.scn setfiletype inflight
