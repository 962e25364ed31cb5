# By-hand check that a grown model opens at rest in Blender as it does in three.js (Blender's glTF
# importer turns a node's scale into a pose scale, which a skin's inverse binds do not undo).
#
#   apt-get install blender python3-numpy
#   blender -b --python scripts/blender_rest.py -- INPUT.glb GROWN.glb
#
# Imports both files, evaluates every mesh object with its armature at the imported pose, and prints
# how far each vertex of the grown file is from the same vertex of the input, and how many pose
# bones carry a scale. Not run by the suite (Blender is a 630 MB install); tests/cli/rig_test.cpp
# checks the property it measures without it.
import numpy

if not hasattr(numpy, "bool"):  # Debian's Blender 3.4 glTF add-on still names numpy.bool (gone in numpy 1.24)
    numpy.bool = bool
import bpy
import math
import sys


def load(path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=path)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    vertices = {}
    for ob in bpy.context.scene.objects:
        if ob.type != 'MESH':
            continue
        evaluated = ob.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        vertices[ob.name] = [tuple(ob.matrix_world @ v.co) for v in mesh.vertices]
        evaluated.to_mesh_clear()
    scaled = [pb.name for ob in bpy.context.scene.objects if ob.type == 'ARMATURE' for pb in ob.pose.bones
              if max(abs(s - 1) for s in pb.scale) > 1e-6]
    return vertices, scaled


input_path, grown_path = sys.argv[sys.argv.index("--") + 1:][:2]
a, scaled_a = load(input_path)
b, scaled_b = load(grown_path)
worst, moved, total, where = 0.0, 0, 0, None
for name, va in a.items():
    vb = b.get(name)
    if vb is None or len(vb) != len(va):
        print("mesh object %s: not in the grown file with the same vertex count" % name)
        continue
    for i, (p, q) in enumerate(zip(va, vb)):
        d = math.dist(p, q)
        total += 1
        moved += d > 1e-4
        if d > worst:
            worst, where = d, (name, i)
print("vertices %d, moved more than 0.1 mm: %d, largest move %.4f mm at %s" % (total, moved, worst * 1000, where))
print("pose bones with a scale: input %d, grown %d %s" % (len(scaled_a), len(scaled_b), scaled_b[:5]))
