"""weft_cloth: one model baked by `weft bake` as one hermetic, cacheable Bazel action.

The action's inputs are the model, the files it references (a .gltf's buffers and images: `srcs`),
the config and the weft binary; its output is the model's folder of cloth assets (a tree artifact:
which files a model yields, its proxies, is known only once it is baked). weft's outputs are the same
bytes on any machine, path and -j (docs/commands.md#hermetic-outputs), so a remote cache shares them
and remote execution spreads a library's models over many machines. `bake-report.json` and
`index.html`, the folder-level report and page beside the model's folder, are not declared: the
report's timings and the page's times are the run's, not the model's, and the model's own
`report.json` is inside the tree. A refused model exits 1 and fails the build; its report.json says why.
"""

def _weft_cloth_impl(ctx):
    model = ctx.file.model
    out = ctx.actions.declare_directory(ctx.label.name + "/" + model.basename)
    args = ctx.actions.args()
    args.add("bake")
    args.add(model)
    args.add("-o", out.dirname)
    args.add_all(["-j", "1", "-q"])
    if ctx.attr.grow_cloth:
        args.add("--grow-cloth")
    if ctx.attr.validate:
        args.add("--validate")
    if ctx.file.config:
        args.add("--config", ctx.file.config)
    args.add_all(ctx.attr.options)
    inputs = [model] + ctx.files.srcs + ([ctx.file.config] if ctx.file.config else [])
    ctx.actions.run(
        executable = ctx.executable.weft,
        arguments = [args],
        inputs = inputs,
        outputs = [out],
        mnemonic = "WeftCloth",
        progress_message = "Baking cloth of %s" % model.short_path,
        # Nothing from the machine: no PATH, no HOME (weft reads neither).
        use_default_shell_env = False,
    )
    return [DefaultInfo(files = depset([out]))]

weft_cloth = rule(
    implementation = _weft_cloth_impl,
    doc = "Bakes one model into its cloth assets with `weft bake` (docs/bazel.md).",
    attrs = {
        "model": attr.label(allow_single_file = [".glb", ".gltf", ".vrm", ".fbx", ".obj", ".dae"], mandatory = True,
                            doc = "The model file."),
        "srcs": attr.label_list(allow_files = True, doc = "The files the model references (a .gltf's .bin and images)."),
        "config": attr.label(allow_single_file = [".json"], doc = "weft.json (--config)."),
        "grow_cloth": attr.bool(default = True, doc = "--grow-cloth"),
        "validate": attr.bool(default = True, doc = "--validate"),
        "options": attr.string_list(doc = "Further `weft bake` flags (model flags: docs/commands.md)."),
        "weft": attr.label(default = "//:weft", executable = True, cfg = "exec", allow_files = True,
                           doc = "The weft binary."),
    },
)
