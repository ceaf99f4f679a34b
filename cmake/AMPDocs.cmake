# Reference pages generated from TableGen. `amp-doc` regenerates them into
# ${AMP_DOCS_BINARY_DIR}; `make docs` copies them into docs/reference/, and the
# lit test docs/reference-up-to-date.test fails when the two differ.

set(AMP_DOCS_BINARY_DIR ${PROJECT_BINARY_DIR}/docs/reference)
add_custom_target(amp-doc)

# amp_add_doc(<td file> <page name> <mlir-tblgen options>...)
function(amp_add_doc td_file page)
  set(LLVM_TARGET_DEFINITIONS ${td_file})
  tablegen(MLIR ${page}.md ${ARGN})
  set(out ${AMP_DOCS_BINARY_DIR}/${page}.md)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_CURRENT_BINARY_DIR}/${page}.md ${out}
    DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/${page}.md)
  add_custom_target(${page}DocGen DEPENDS ${out})
  add_dependencies(amp-doc ${page}DocGen)
endfunction()
