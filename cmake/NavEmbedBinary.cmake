# cmake -DNAME=<symbol> -DFILE=<input> -DOUT=<output .c> -P NavEmbedBinary.cmake: write a C source defining
#   const unsigned char <symbol>[] = {<the bytes of the input file>};  const size_t <symbol>_size;
# (16-byte aligned), for a binary made at build time (the LTO-IR fatbins of backend/cuda/fft_callbacks.cu).
# The counterpart for text present at configure time is nav_embed_text (NavEmbed.cmake).
if(NOT NAME OR NOT FILE OR NOT OUT)
  message(FATAL_ERROR "NavEmbedBinary.cmake: NAME, FILE and OUT are required")
endif()
file(READ "${FILE}" hex HEX)
string(LENGTH "${hex}" len)
if(len EQUAL 0)
  message(FATAL_ERROR "NavEmbedBinary.cmake: ${FILE} is empty")
endif()
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REPEAT "0x..," 16 line) # CMake regexes have no {n}
string(REGEX REPLACE "(${line})" "\\1\n  " bytes "${bytes}") # 16 bytes a line
get_filename_component(input "${FILE}" NAME)
file(WRITE "${OUT}" "/* generated from ${input} by cmake/NavEmbedBinary.cmake */\n#include <stddef.h>\n\n"
                    "_Alignas(16) const unsigned char ${NAME}[] = {\n  ${bytes}};\n"
                    "const size_t ${NAME}_size = sizeof ${NAME};\n")
