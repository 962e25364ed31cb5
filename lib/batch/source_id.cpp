#include "batch/source_id.h"

#include "weft_source_id.h"  // generated into the build tree (lib/pipeline/CMakeLists.txt)

namespace weft {

const char* weft_source_id() { return WEFT_SOURCE_ID; }

}  // namespace weft
