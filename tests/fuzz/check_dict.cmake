# SPDX-License-Identifier: GPL-3.0-or-later
# cmake -DDICT=scene.dict -P check_dict.cmake: every entry of the fuzz dictionary is one libFuzzer
# can read (name="...", escapes only \\, \" and \xAB). A bad entry stops a fuzz run at its start
# ("ParseDictionaryFile: error in line N"), which the normal build would otherwise never see.
file(STRINGS "${DICT}" lines)
set(n 0)
set(entries 0)
foreach(line IN LISTS lines)
  math(EXPR n "${n} + 1")
  if(line MATCHES "^[ \t]*(#.*)?$")
    continue()
  endif()
  if(NOT line MATCHES "^[A-Za-z0-9_]+=\"([^\"\\\\]|\\\\[\\\\\"]|\\\\x[0-9A-Fa-f][0-9A-Fa-f])*\"$")
    message(FATAL_ERROR "${DICT}:${n}:1: error: not a libFuzzer dictionary entry: ${line}")
  endif()
  math(EXPR entries "${entries} + 1")
endforeach()
message(STATUS "${entries} dictionary entries")
