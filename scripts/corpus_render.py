# Four views of a model in one PNG, to label it by looking (docs/corpus.md#how-it-was-labelled).
#   blender -b --factory-startup --python scripts/corpus_render.py -- MODEL OUT.png [NAME,NAME...]
# MODEL is a glTF/GLB/VRM, a binary FBX or an OBJ (Debian's blender 3.4 reads no ASCII FBX and no Draco:
# convert those first, e.g. `assimp export in.fbx out.glb`). The views, in a 2x2 grid: the front and
# the side (below), a high three-quarter view and the back (above), orthographic, Workbench engine.
# With NAMES, materials of those names are drawn red, meshes or nodes of those names blue, the rest
# grey: which part carries which material. Prints one line per mesh object: its vertices, materials,
# bounding box (Blender's Z up) and parent (and parent bone), which is what the labels name.
import os
import sys

import bpy
import numpy as np
from mathutils import Vector

# Blender 3.4's glTF importer still uses numpy aliases that numpy 1.24 removed.
np.bool = bool
np.int = int
np.float = float

TILE = 300


def load(path):
    ext = os.path.splitext(path)[1].lower()
    if ext in ('.glb', '.gltf', '.vrm'):
        bpy.ops.import_scene.gltf(filepath=path)
    elif ext == '.fbx':
        bpy.ops.import_scene.fbx(filepath=path)
    elif ext == '.obj':
        bpy.ops.wm.obj_import(filepath=path)
    else:
        raise SystemExit('not a model: ' + path)


def describe(meshes):
    """Prints each mesh object and returns the scene's bounding box."""
    lo, hi = Vector((1e9,) * 3), Vector((-1e9,) * 3)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    for o in meshes:
        evaluated = o.evaluated_get(depsgraph)
        corners = [evaluated.matrix_world @ Vector(c) for c in evaluated.bound_box]
        blo = Vector([min(c[i] for c in corners) for i in range(3)])
        bhi = Vector([max(c[i] for c in corners) for i in range(3)])
        lo, hi = Vector(map(min, lo, blo)), Vector(map(max, hi, bhi))
        materials = [s.material.name if s.material else '-' for s in o.material_slots]
        print('OBJ %-28s v=%-6d mats=%s z=[%.2f,%.2f] x=[%.2f,%.2f] y=[%.2f,%.2f] parent=%s'
              % (o.name, len(o.data.vertices), materials, blo[2], bhi[2], blo[0], bhi[0], blo[1], bhi[1],
                 o.parent.name if o.parent else '-'))
        if o.parent_type == 'BONE':
            print('    parent bone', o.parent_bone)
    print('BBOX', tuple(round(v, 3) for v in lo), tuple(round(v, 3) for v in hi))
    return lo, hi


def highlight(meshes, names):
    for m in bpy.data.materials:
        m.diffuse_color = (0.9, 0.1, 0.1, 1) if m.name.lower() in names else (0.75, 0.75, 0.75, 1)
    for o in meshes:
        if {o.name.lower(), o.data.name.lower(), o.parent.name.lower() if o.parent else ''} & names:
            for slot in o.material_slots:
                if slot.material:
                    slot.material = slot.material.copy()
                    slot.material.diffuse_color = (0.1, 0.3, 0.9, 1)


def render_views(scene, centre, size, out):
    """Renders the four views and returns them as pixel arrays (rows bottom-up, as Blender keeps them)."""
    camera = bpy.data.cameras.new('corpus')
    camera.type = 'ORTHO'
    camera.ortho_scale = size * 1.05
    camera.clip_end = size * 10
    node = bpy.data.objects.new('corpus', camera)
    scene.collection.objects.link(node)
    scene.camera = node
    tiles = []
    for i, (x, y, z) in enumerate([(0, -1, 0), (1, 0, 0), (0, 1, 0), (-0.7, -0.7, 0.8)]):
        direction = Vector((x, y, z)).normalized()
        node.location = centre + direction * size * 2
        node.rotation_euler = (-direction).to_track_quat('-Z', 'Y').to_euler()
        path = '%s.%d.png' % (out, i)
        scene.render.filepath = path
        bpy.ops.render.render(write_still=True)
        image = bpy.data.images.load(path)
        tiles.append(np.array(image.pixels[:], dtype=np.float32).reshape(image.size[1], image.size[0], 4))
        os.remove(path)
    return tiles


def main():
    argv = sys.argv[sys.argv.index('--') + 1:]
    src, out = argv[0], argv[1]
    names = {n.lower() for n in argv[2].split(',')} if len(argv) > 2 and argv[2] else set()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    load(src)
    scene = bpy.context.scene
    meshes = [o for o in scene.objects if o.type == 'MESH']
    lo, hi = describe(meshes)
    if names:
        highlight(meshes, names)
    scene.world = scene.world or bpy.data.worlds.new('corpus')  # a grey ground, not black
    scene.render.engine = 'BLENDER_WORKBENCH'
    scene.display.shading.light = 'STUDIO'
    scene.display.shading.color_type = 'MATERIAL' if names else 'TEXTURE'
    scene.display.shading.show_object_outline = True
    scene.display.render_aa = 'FXAA'
    scene.render.resolution_x = scene.render.resolution_y = TILE
    front, side, back, high = render_views(scene, (lo + hi) / 2, max((hi - lo).length, 1e-6), out)
    grid = np.concatenate([np.concatenate([front, side], axis=1), np.concatenate([high, back], axis=1)], axis=0)
    image = bpy.data.images.new('corpus', grid.shape[1], grid.shape[0])
    image.pixels = grid.ravel()
    image.filepath_raw = out
    image.file_format = 'PNG'
    image.save()


main()
