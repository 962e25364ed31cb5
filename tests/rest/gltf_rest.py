#!/usr/bin/python3
# An independent glTF 2.0 reader (Python + numpy, nothing of weft's): every mesh of a file posed at its
# default pose -- the nodes' own transforms, which is what a viewer shows -- skinned as the glTF 2.0
# specification says (3.7.3 "Skins": a vertex is the sum over its influences of weight x joint world
# matrix x inverse bind matrix x position; the node holding a skinned mesh contributes nothing), with
# the mesh's default morph weights applied first (3.7.2.2 "Morph Targets"). It compares two files
# vertex for vertex.
#
#   gltf_rest.py A.glb B.glb [C.gltf D.vrm ...]     pairs: each second file against the first
#
# Prints one JSON object per pair on a line of its own: {"a", "b", "vertices", "largest" (metres),
# "where" (mesh, primitive, vertex), "over_0.1mm"}, or {"a", "b", "error"}. Meshes pair up in the
# order the nodes that hold them come in each file (a grown file appends nodes but keeps the order of
# those holding meshes); two meshes that pair up must have the same primitives and vertex counts.
import base64
import json
import os
import struct
import sys
import urllib.parse

import numpy

COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
TYPES = {5120: numpy.int8, 5121: numpy.uint8, 5122: numpy.int16, 5123: numpy.uint16, 5125: numpy.uint32, 5126: numpy.float32}
NORMALIZED_SCALE = {5120: 127.0, 5121: 255.0, 5122: 32767.0, 5123: 65535.0}


class Gltf:
    def __init__(self, path):
        self.path = path
        data = open(path, "rb").read()
        self.bin = None
        if data[:4] == b"glTF":
            offset = 12
            while offset + 8 <= len(data):
                length, kind = struct.unpack_from("<II", data, offset)
                chunk = data[offset + 8: offset + 8 + length]
                if kind == 0x4E4F534A:
                    self.doc = json.loads(chunk)
                elif kind == 0x004E4942:
                    self.bin = chunk
                offset += 8 + length
        else:
            self.doc = json.loads(data)
        self.buffers = [self.buffer(i, b) for i, b in enumerate(self.doc.get("buffers", []))]

    def buffer(self, index, b):
        uri = b.get("uri")
        if uri is None:
            return self.bin
        if uri.startswith("data:"):
            return base64.b64decode(uri.split(",", 1)[1])
        return open(os.path.join(os.path.dirname(self.path), urllib.parse.unquote(uri)), "rb").read()

    def view_array(self, view_index, offset, count, ctype, ncomp):
        view = self.doc["bufferViews"][view_index]
        data = self.buffers[view.get("buffer", 0)]
        start = view.get("byteOffset", 0) + offset
        item = numpy.dtype(TYPES[ctype]).itemsize * ncomp
        stride = view.get("byteStride", 0) or item
        out = numpy.empty((count, ncomp), dtype=TYPES[ctype])
        raw = numpy.frombuffer(data, dtype=numpy.uint8)
        for i in range(count) if stride != item else []:
            out[i] = numpy.frombuffer(raw[start + i * stride: start + i * stride + item].tobytes(), dtype=TYPES[ctype])
        if stride == item:
            out = numpy.frombuffer(data, dtype=TYPES[ctype], count=count * ncomp, offset=start).reshape(count, ncomp)
        return out

    def accessor(self, index):
        a = self.doc["accessors"][index]
        n, ctype, count = COMPONENTS[a["type"]], a["componentType"], a["count"]
        if "bufferView" in a:
            values = self.view_array(a["bufferView"], a.get("byteOffset", 0), count, ctype, n).astype(numpy.float64)
        else:
            values = numpy.zeros((count, n))
        sparse = a.get("sparse")
        if sparse:
            idx = sparse["indices"]
            rows = self.view_array(idx["bufferView"], idx.get("byteOffset", 0), sparse["count"], idx["componentType"], 1)[:, 0]
            val = sparse["values"]
            values = values.copy()
            values[rows.astype(numpy.int64)] = self.view_array(val["bufferView"], val.get("byteOffset", 0), sparse["count"], ctype, n)
        if a.get("normalized") and ctype in NORMALIZED_SCALE:
            values = numpy.maximum(values / NORMALIZED_SCALE[ctype], -1.0)
        return values

    def local(self, node):
        if "matrix" in node:
            return numpy.array(node["matrix"], dtype=numpy.float64).reshape(4, 4).T
        x, y, z, w = node.get("rotation", [0, 0, 0, 1])
        rotation = numpy.array([
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
        m = numpy.eye(4)
        m[:3, :3] = rotation * numpy.array(node.get("scale", [1, 1, 1]), dtype=numpy.float64)
        m[:3, 3] = node.get("translation", [0, 0, 0])
        return m

    def worlds(self):
        nodes = self.doc.get("nodes", [])
        parent = {}
        for i, n in enumerate(nodes):
            for c in n.get("children", []):
                parent[c] = i
        world = {}

        def of(i):
            if i not in world:
                world[i] = (of(parent[i]) if i in parent else numpy.eye(4)) @ self.local(nodes[i])
            return world[i]

        return [of(i) for i in range(len(nodes))]

    def posed_meshes(self):
        """Per node holding a mesh, in node order: (mesh name, [positions of each primitive at rest])."""
        worlds = self.worlds()
        out = []
        for i, node in enumerate(self.doc.get("nodes", [])):
            if "mesh" not in node:
                continue
            mesh = self.doc["meshes"][node["mesh"]]
            weights = node.get("weights", mesh.get("weights"))
            skin = self.doc["skins"][node["skin"]] if "skin" in node else None
            joint_matrices = None
            if skin is not None:
                joints = skin["joints"]
                ibm = (self.accessor(skin["inverseBindMatrices"]).reshape(-1, 4, 4).transpose(0, 2, 1)
                       if "inverseBindMatrices" in skin else numpy.tile(numpy.eye(4), (len(joints), 1, 1)))
                joint_matrices = numpy.array([worlds[j] for j in joints]) @ ibm
            primitives = []
            for prim in mesh["primitives"]:
                at = prim["attributes"]
                p = self.accessor(at["POSITION"])
                if weights:
                    for k, target in enumerate(prim.get("targets", [])):
                        if k < len(weights) and weights[k] != 0 and "POSITION" in target:
                            p = p + weights[k] * self.accessor(target["POSITION"])
                h = numpy.hstack([p, numpy.ones((len(p), 1))])
                if joint_matrices is not None and "JOINTS_0" in at:
                    posed = numpy.zeros((len(p), 4))
                    s = 0
                    while "JOINTS_%d" % s in at:
                        js = self.accessor(at["JOINTS_%d" % s]).astype(numpy.int64)
                        ws = self.accessor(at["WEIGHTS_%d" % s])
                        for c in range(4):
                            m = joint_matrices[js[:, c]]
                            posed += ws[:, c:c + 1] * numpy.einsum("vij,vj->vi", m, h)
                        s += 1
                    primitives.append(posed[:, :3])
                else:
                    primitives.append((h @ worlds[i].T)[:, :3])
            out.append((mesh.get("name", "mesh %d" % node["mesh"]), primitives))
        return out


def compare(path_a, path_b):
    a, b = Gltf(path_a).posed_meshes(), Gltf(path_b).posed_meshes()
    if len(a) != len(b):
        return {"error": "%d meshes at nodes against %d" % (len(a), len(b))}
    vertices, largest, where, over = 0, 0.0, None, 0
    for m, ((name_a, prims_a), (name_b, prims_b)) in enumerate(zip(a, b)):
        if len(prims_a) != len(prims_b):
            return {"error": "mesh %d '%s': %d primitives against %d" % (m, name_a, len(prims_a), len(prims_b))}
        for k, (pa, pb) in enumerate(zip(prims_a, prims_b)):
            if pa.shape != pb.shape:
                return {"error": "mesh %d '%s' primitive %d: %d vertices against %d" % (m, name_a, k, len(pa), len(pb))}
            d = numpy.linalg.norm(pa - pb, axis=1)
            vertices += len(d)
            over += int(numpy.count_nonzero(d > 1e-4))
            if len(d) and d.max() > largest:
                largest, where = float(d.max()), {"mesh": name_a, "primitive": k, "vertex": int(d.argmax())}
    return {"vertices": vertices, "largest": largest, "where": where, "over_0.1mm": over}


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        sys.stderr.write("usage: gltf_rest.py A B [A B ...]\n")
        return 2
    for path_a, path_b in zip(argv[0::2], argv[1::2]):
        try:
            result = compare(path_a, path_b)
        except Exception as e:  # a file this reader cannot read is a finding, not a crash of the run
            result = {"error": "%s: %s" % (type(e).__name__, e)}
        print(json.dumps(dict({"a": path_a, "b": path_b}, **result)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
