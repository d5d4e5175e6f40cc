# nav_embed_text(<symbol> <input file> <output .c>): write a C source defining
#   const char <symbol>[] = "<contents of the input file>";
# so reference data travel inside the binary. Re-runs when the input changes.
function(nav_embed_text symbol input output)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${input}")
  file(READ "${input}" text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE "\n" "\\n\"\n\"" text "${text}")
  file(WRITE "${output}" "/* generated from ${input} by cmake/NavEmbed.cmake */\nconst char ${symbol}[] = \"${text}\";\n")
endfunction()
