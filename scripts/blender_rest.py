# Blender's view of a grown model at rest against its input (not run by the suite: Blender is a 630 MB
# install; tests/cli/rest_pose_test.cpp proves the same with an independent reader, tests/rest/gltf_rest.py,
# and with three.js, tests/js/rest_pose.mjs).
#
#   apt-get install blender python3-numpy
#   blender -b --python scripts/blender_rest.py -- INPUT GROWN.glb [INPUT2 GROWN2.glb ...]
#
# Imports each file into an empty scene (glTF/GLB/VRM with Blender's glTF importer, FBX with its FBX
# importer, OBJ and Collada likewise) at its default pose -- Blender's glTF importer makes a file's
# first animation the armature's action, so a copy without animations is what it reads, and an FBX
# armature's action is cleared and its pose reset to the rest --, evaluates every mesh object with its armature at the imported
# pose, and prints per pair how far the grown file's vertices are from the input's: vertex for vertex
# where the two files give the same mesh objects with the same vertex counts (a glTF input), else
# each vertex against the nearest of the other file's (an FBX input, which Blender splits and names
# its own way: a symmetric nearest-point distance, which a shift along the surface hides but which
# any vertex leaving the surface shows). Also how many pose bones carry a scale (Blender's glTF
# importer turns a node's scale into a pose scale, which a skin's inverse binds do not undo).
import numpy

if not hasattr(numpy, "bool"):  # Debian's Blender 3.4 glTF add-on still names numpy.bool (gone in numpy 1.24)
    numpy.bool = bool
import bpy
import json
import math
import os
import struct
import sys
import tempfile
from mathutils.kdtree import KDTree


def without_animations(path):
    """A copy of a glTF/GLB/VRM without its animations (buffers named by absolute path), else the path."""
    data = open(path, "rb").read()
    if data[:4] == b"glTF":
        length = struct.unpack_from("<I", data, 12)[0]
        doc, rest = json.loads(data[20:20 + length]), data[20 + length:]
    else:
        doc, rest = json.loads(data), b""
        for b in doc.get("buffers", []) + doc.get("images", []):
            if "uri" in b and not b["uri"].startswith("data:"):
                b["uri"] = os.path.abspath(os.path.join(os.path.dirname(path), b["uri"]))
    if not doc.pop("animations", None):
        return path
    text = json.dumps(doc).encode()
    text += b" " * (-len(text) % 4)
    out = tempfile.NamedTemporaryFile(suffix=".glb" if rest else ".gltf", delete=False)
    if rest:
        out.write(struct.pack("<III", 0x46546C67, 2, 20 + len(text) + len(rest)) + struct.pack("<II", len(text), 0x4E4F534A) + text + rest)
    else:
        out.write(text)
    out.close()
    return out.name


def load(path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    lower = path.lower()
    if lower.endswith((".glb", ".gltf", ".vrm")):
        bpy.ops.import_scene.gltf(filepath=without_animations(path))
    elif lower.endswith(".fbx"):
        bpy.ops.import_scene.fbx(filepath=path)
        for ob in bpy.context.scene.objects:
            if ob.type == 'ARMATURE':
                ob.animation_data_clear()
                for pb in ob.pose.bones:
                    pb.matrix_basis.identity()
    elif lower.endswith(".obj"):
        bpy.ops.wm.obj_import(filepath=path)
    elif lower.endswith(".dae"):
        bpy.ops.wm.collada_import(filepath=path)
    else:
        raise SystemExit("%s: no Blender importer for it here" % path)
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


def by_vertex(a, b):
    worst, moved, total, where = 0.0, 0, 0, None
    for name, va in a.items():
        for i, (p, q) in enumerate(zip(va, b[name])):
            d = math.dist(p, q)
            total += 1
            moved += d > 1e-4
            if d > worst:
                worst, where = d, (name, i)
    return total, moved, worst, where


def nearest(a, b):
    points = [p for va in b.values() for p in va]
    tree = KDTree(len(points))
    for i, p in enumerate(points):
        tree.insert(p, i)
    tree.balance()
    worst, moved, total, where = 0.0, 0, 0, None
    for name, va in a.items():
        for i, p in enumerate(va):
            d = tree.find(p)[2]
            total += 1
            moved += d > 1e-4
            if d > worst:
                worst, where = d, (name, i)
    return total, moved, worst, where


args = sys.argv[sys.argv.index("--") + 1:]
for input_path, grown_path in zip(args[0::2], args[1::2]):
    a, scaled_a = load(input_path)
    b, scaled_b = load(grown_path)
    same = a.keys() == b.keys() and all(len(a[k]) == len(b[k]) for k in a)
    if same:
        method, (total, moved, worst, where) = "vertex for vertex", by_vertex(a, b)
    else:
        forward, backward = nearest(b, a), nearest(a, b)
        total, moved = forward[0], forward[1] + backward[1]
        worst, where = max((forward[2], forward[3]), (backward[2], backward[3]))
        method = "nearest vertex, both ways"
    print("%s -> %s (%s): vertices %d, moved more than 0.1 mm: %d, largest move %.4f mm at %s" %
          (input_path, grown_path, method, total, moved, worst * 1000, where))
    print("  pose bones with a scale: input %d, grown %d %s" % (len(scaled_a), len(scaled_b), scaled_b[:5]))
