# Generates ReportTemplate.inc: the report page (template/report.html with
# the style sheet and the scripts put in its place) as two C++ string
# constants, kReportPageBefore and kReportPageAfter, around the place of the
# report's JSON.
#
#   cmake -DHTML=report.html -DCSS=report.css "-DJS=a.js|b.js" -DOUT=x.inc
#         -P EmbedTemplate.cmake

cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" JS "${JS}")
file(READ "${HTML}" page)
file(READ "${CSS}" css)
set(js "")
foreach(script IN LISTS JS)
  file(READ "${script}" text)
  get_filename_component(name "${script}" NAME)
  string(APPEND js "// ---- ${name}\n${text}\n")
endforeach()

foreach(marker "/*@CSS@*/" "/*@JS@*/" "@DATA@")
  string(FIND "${page}" "${marker}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${HTML} has no ${marker}")
  endif()
endforeach()
string(REPLACE "/*@CSS@*/" "${css}" page "${page}")
string(REPLACE "/*@JS@*/" "${js}" page "${page}")
string(FIND "${page}" "@DATA@" at)
string(SUBSTRING "${page}" 0 ${at} before)
math(EXPR after_start "${at} + 6")
string(SUBSTRING "${page}" ${after_start} -1 after)

# Raw string literals in pieces (some compilers limit one literal's length).
set(delimiter "amp_report")
function(emit_literal name text out)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "the report template contains )${delimiter}\"")
  endif()
  string(LENGTH "${text}" length)
  set(result "static constexpr const char ${name}[] =\n")
  set(offset 0)
  while(offset LESS length)
    string(SUBSTRING "${text}" ${offset} 8000 piece)
    string(APPEND result "R\"${delimiter}(${piece})${delimiter}\"\n")
    math(EXPR offset "${offset} + 8000")
  endwhile()
  if(length EQUAL 0)
    string(APPEND result "\"\"\n")
  endif()
  string(APPEND result ";\n")
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

emit_literal(kReportPageBefore "${before}" first)
emit_literal(kReportPageAfter "${after}" second)
set(content "// Generated from lib/Report/template by EmbedTemplate.cmake; do not edit.\n${first}${second}")
# Rewrite only on change, so that dependents do not rebuild needlessly.
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${content}")
