#include "pipeline/model_options.h"

namespace weft {

ModelOptions sheet_preset(SheetOnlyOptions only, SheetOptions sheet) {
    ModelOptions o;
    o.grow_cloth = false;  // a sheet is built from the garment as modelled
    o.sheet_only = std::move(only);
    o.sheet = std::move(sheet);
    o.write_report = false;
    return o;
}

ModelOptions inspect_preset() {
    ModelOptions o;
    o.sheets = true;
    o.write_files = false;
    o.write_report = false;
    return o;
}

ModelOptions bake_preset() {
    ModelOptions o;
    o.sheets = true;
    o.report_timings = false;
    o.write_validation = true;
    o.page = true;
    o.stamp = true;
    return o;
}

}  // namespace weft
