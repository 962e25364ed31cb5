# weft_add_cloth_assets: cloth assets baked by `weft bake` as part of a CMake project.
#
#   include(WeftClothAssets)   # with weft's cmake/ folder on CMAKE_MODULE_PATH
#   weft_add_cloth_assets(TARGET <name> MODELS <file>... OUTPUT_DIR <dir>
#                         [OPTIONS <weft bake argument>...] [WEFT <exe or target>] [CONFIG <file>] [ALL])
#
# One custom command per model, so Ninja and Make re-run only the models whose inputs changed:
#   OUTPUT_DIR/<model>/bake-report.json      the command's output (what the build system tracks)
#   OUTPUT_DIR/<model>/<file name>/...       the model's proxies, sidecars, report.json, bake-stamp.json
# where <model> is the model's path relative to CMAKE_CURRENT_SOURCE_DIR (its file name when it
# lies elsewhere). Each command writes a depfile (`weft bake --depfile`) naming the model, the
# external .bin and image files a .gltf references, and the config; Ninja and Makefile generators
# read it (DEPFILE), so editing a referenced file re-bakes that model only. Other generators get the
# model, the config and weft itself as plain dependencies.
#
#   TARGET      custom target that depends on every model's output; ALL adds it to the default build
#   MODELS      model files (relative to CMAKE_CURRENT_SOURCE_DIR or absolute)
#   OUTPUT_DIR  relative to CMAKE_CURRENT_BINARY_DIR or absolute
#   OPTIONS     passed to every `weft bake` (e.g. --grow-cloth, --classes hair, --fabric denim)
#   WEFT        the weft executable: a target name or a path. Default: the `weft` target (weft
#               built in the same tree), else the imported target weft::weft, else `weft` found
#               on PATH (WEFT_EXECUTABLE caches it)
#   CONFIG      garment config file (schemas/config.schema.json), passed as --config
#
# A model weft refuses fails its command (weft bake exits 1) and so the build; its report says why
# (OUTPUT_DIR/<model>/bake-report.json). The target's property WEFT_CLOTH_ASSET_REPORTS lists the
# reports. Unchanged models are also skipped inside weft (bake-stamp.json), so a re-run forced by a
# touched file costs a hash of the inputs.
include_guard(GLOBAL)
cmake_minimum_required(VERSION 3.20)

# Policies are recorded when the function is defined: Ninja's depfile paths are made relative to
# the build folder by CMake (CMP0116), as its own outputs are.
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW)
endif()

function(weft_add_cloth_assets)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "ALL" "TARGET;OUTPUT_DIR;WEFT;CONFIG" "MODELS;OPTIONS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "weft_add_cloth_assets: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TARGET)
    message(FATAL_ERROR "weft_add_cloth_assets: TARGET <name> is required")
  endif()
  if(NOT ARG_MODELS)
    message(FATAL_ERROR "weft_add_cloth_assets(${ARG_TARGET}): MODELS <file>... is required")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    message(FATAL_ERROR "weft_add_cloth_assets(${ARG_TARGET}): OUTPUT_DIR <dir> is required")
  endif()

  # The weft command and what the commands depend on for it (a rebuilt weft re-runs them; weft's
  # own stamps then skip every model whose outputs its version already made).
  if(ARG_WEFT AND TARGET "${ARG_WEFT}")
    set(weft_command "$<TARGET_FILE:${ARG_WEFT}>")
    set(weft_depends "${ARG_WEFT}")
  elseif(ARG_WEFT)
    get_filename_component(weft_command "${ARG_WEFT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${weft_command}")
      message(FATAL_ERROR "weft_add_cloth_assets(${ARG_TARGET}): WEFT ${ARG_WEFT}: no such file")
    endif()
    set(weft_depends "${weft_command}")
  elseif(TARGET weft)
    set(weft_command "$<TARGET_FILE:weft>")
    set(weft_depends weft)
  elseif(TARGET weft::weft)
    set(weft_command "$<TARGET_FILE:weft::weft>")
    set(weft_depends weft::weft)
  else()
    find_program(WEFT_EXECUTABLE weft DOC "The weft command (weft_add_cloth_assets)")
    if(NOT WEFT_EXECUTABLE)
      message(FATAL_ERROR "weft_add_cloth_assets(${ARG_TARGET}): weft not found: pass WEFT <path>, "
                          "set WEFT_EXECUTABLE, or put weft on PATH")
    endif()
    set(weft_command "${WEFT_EXECUTABLE}")
    set(weft_depends "${WEFT_EXECUTABLE}")
  endif()

  get_filename_component(output_dir "${ARG_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  set(config_args "")
  set(config_depends "")
  if(ARG_CONFIG)
    get_filename_component(config "${ARG_CONFIG}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${config}")
      message(FATAL_ERROR "weft_add_cloth_assets(${ARG_TARGET}): CONFIG ${ARG_CONFIG}: no such file")
    endif()
    set(config_args --config "${config}")
    set(config_depends "${config}")
  endif()
  # DEPFILE is understood by these generators from CMake 3.20 on; others would reject it.
  set(use_depfile OFF)
  if(CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
    set(use_depfile ON)
  endif()

  # Quiet unless the caller asked for weft's warnings (-q and -v exclude each other).
  set(quiet -q)
  if("-v" IN_LIST ARG_OPTIONS OR "--verbose" IN_LIST ARG_OPTIONS OR "-q" IN_LIST ARG_OPTIONS OR "--quiet" IN_LIST ARG_OPTIONS)
    set(quiet "")
  endif()

  set(reports "")
  set(names "")
  foreach(model IN LISTS ARG_MODELS)
    get_filename_component(model_path "${model}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${model_path}" OR IS_DIRECTORY "${model_path}")
      message(FATAL_ERROR "weft_add_cloth_assets(${ARG_TARGET}): model ${model}: no such file")
    endif()
    file(RELATIVE_PATH name "${CMAKE_CURRENT_SOURCE_DIR}" "${model_path}")
    if(name MATCHES "^\\.\\./" OR IS_ABSOLUTE "${name}")
      get_filename_component(name "${model_path}" NAME)
    endif()
    if(name IN_LIST names)
      message(FATAL_ERROR "weft_add_cloth_assets(${ARG_TARGET}): two models would share the output "
                          "folder ${output_dir}/${name}: ${model}")
    endif()
    list(APPEND names "${name}")

    set(model_out "${output_dir}/${name}")
    set(report "${model_out}/bake-report.json")
    set(depfile "${CMAKE_CURRENT_BINARY_DIR}/weft_cloth_assets/${ARG_TARGET}/${name}.d")
    set(depfile_args "")
    if(use_depfile)
      # weft names the report (OUT/bake-report.json) as the depfile's target, the OUTPUT below.
      set(depfile_args DEPFILE "${depfile}")
    endif()
    add_custom_command(
      OUTPUT "${report}"
      COMMAND "${weft_command}" bake "${model_path}" -o "${model_out}" ${quiet} ${config_args} ${ARG_OPTIONS}
              --depfile "${depfile}"
      DEPENDS "${model_path}" ${config_depends} ${weft_depends}
      ${depfile_args}
      COMMENT "weft bake ${name}"
      VERBATIM)
    list(APPEND reports "${report}")
  endforeach()

  set(all "")
  if(ARG_ALL)
    set(all ALL)
  endif()
  add_custom_target(${ARG_TARGET} ${all} DEPENDS ${reports})
  set_property(TARGET ${ARG_TARGET} PROPERTY WEFT_CLOTH_ASSET_REPORTS "${reports}")
endfunction()
