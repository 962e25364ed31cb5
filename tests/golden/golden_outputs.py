#!/usr/bin/env python3
"""ctest golden_outputs: the golden bake's outputs (tests/golden/golden_bake.sh) checked against what
is known of them without weft: every .clothproxy read by a reader written from
schemas/clothproxy-format.md alone (its own CRC-32C, its own section walk), the invariants that
format and docs/proxy.md state, the grown models read as glTF 2.0 (weights that sum to one, joints
the skin has), and the counts a person can check in the shared models' MANIFEST.md (the Knight's cape
is 56 vertices and 84 triangles, the Fox's tail the 8 joints Tail1..Tail8, ...). The manifest of
hashes pins the bytes; this says the bytes are right.

    golden_outputs.py OUT      OUT: the bake's output folder (SCRATCH/run/out); exit 77 when absent
Python 3 standard library only."""
import json
import math
import os
import struct
import sys

# ---- the .clothproxy reader (schemas/clothproxy-format.md) -------------------------------------------

MAGIC = b"\x89WCP\r\n\x1a\n"
SECTIONS = ["KIND", "GRMT", "CLAS", "FABR", "SRCF", "SMNM", "SMMT", "SMVR", "OPTS", "FRND", "FRMX", "RPOS",
            "IMAS", "PSRC", "JNTN", "DGEO", "NHLD", "CRAD", "COLR", "MASS", "EDGE", "ELEN", "SKIP", "SLEN",
            "HNGE", "TRIS", "BREF", "PINH", "PINC", "PINP", "VPRT", "RTRI", "BTRI", "BCRD", "VLNK", "VPOS"]
# element type code -> (struct format of one element, its bytes); 8 is a list of strings
ELEMENT = {1: ("B", 1), 2: ("I", 4), 3: ("d", 8), 4: ("2I", 8), 5: ("3I", 12), 6: ("4I", 16), 7: ("3d", 24)}
NONE = 0xFFFFFFFF


def crc32c(data):
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    crc = 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


assert crc32c(b"123456789") == 0xE3069283  # the format's check value


class Fail(Exception):
    pass


def require(cond, what):
    if not cond:
        raise Fail(what)


def read_clothproxy(path):
    data = open(path, "rb").read()
    require(data[:8] == MAGIC, "magic")
    version, checksum, size, count, reserved = struct.unpack_from("<IIQII", data, 8)
    require(version == 5, f"version {version}")
    require(size == len(data) and size % 8 == 0, f"file size {size} of {len(data)} bytes")
    require(checksum == crc32c(data[16:]), "CRC-32C")
    require(count == len(SECTIONS) and reserved == 0, f"section count {count}")
    out = {}
    at = 32 + 32 * count
    for k in range(count):
        tag, etype, n, offset, nbytes = struct.unpack_from("<IIQQQ", data, 32 + 32 * k)
        name = tag.to_bytes(4, "little").decode("ascii")
        require(name == SECTIONS[k], f"section {k} is {name}, not {SECTIONS[k]}")
        require(offset == at, f"{name} at {offset}, not {at}")
        body = data[offset:offset + nbytes]
        if etype == 8:
            strings, p = [], 0
            for _ in range(n):
                (length,) = struct.unpack_from("<I", body, p)
                strings.append(body[p + 4:p + 4 + length].decode("utf-8"))
                p += 4 + length
            require(p == nbytes, f"{name}: strings do not fill the section")
            out[name] = strings
        else:
            fmt, width = ELEMENT[etype]
            require(n * width == nbytes, f"{name}: {n} elements in {nbytes} bytes")
            if etype == 1:
                out[name] = body.decode("utf-8")
            else:
                values = struct.unpack("<" + fmt[-1] * (n * (int(fmt[:-1]) if len(fmt) > 1 else 1)), body)
                group = int(fmt[:-1]) if len(fmt) > 1 else 1
                out[name] = [values[i:i + group] if group > 1 else values[i] for i in range(0, len(values), group)]
        require(all(b == 0 for b in data[offset + nbytes:(offset + nbytes + 7) // 8 * 8]), f"{name}: padding")
        at = (offset + nbytes + 7) // 8 * 8
    require(at == size, "bytes after the last section")
    return out


# ---- what the format and docs/proxy.md say of every proxy ------------------------------------------


def dist(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


def check_proxy(p, where):
    x, w, n = p["RPOS"], p["IMAS"], len(p["RPOS"])
    require(n > 0, "no particles")
    for key in ("IMAS", "PSRC", "DGEO", "NHLD"):
        require(len(p[key]) == n, f"{key} has {len(p[key])} entries for {n} particles")
    held = {i for i in range(n) if w[i] == 0}
    require(held, "nothing held")
    # Pins: each holds held particles, ascending; together they are every held particle.
    pinned, at = set(), 0
    for holder, count in zip(p["PINH"], p["PINC"]):
        ps = p["PINP"][at:at + count]
        at += count
        require(holder != "", "a pin with no holder")
        require(list(ps) == sorted(set(ps)), f"pin {holder}: particles not ascending")
        pinned.update(ps)
    require(pinned == held, f"pins hold {sorted(pinned)[:8]}..., inverse mass 0 at {sorted(held)[:8]}...")
    # Masses: the total is the free particles' masses plus the held ones' (which the file does not
    # carry): at least the free particles' 1/w.
    free_mass = sum(1 / v for v in w if v > 0)
    require(p["MASS"][0] >= free_mass * (1 - 1e-12), f"total mass {p['MASS'][0]} < free mass {free_mass}")
    # Rows: indices in range, rest lengths the rest positions' distances.
    for (a, b), length in zip(p["EDGE"], p["ELEN"]):
        require(a < n and b < n and a != b, f"edge ({a}, {b})")
        require(abs(dist(x[a], x[b]) - length) <= 1e-9 * max(1.0, length), f"edge ({a}, {b}) rest {length} vs {dist(x[a], x[b])}")
    for (a, b), length in zip(p["SKIP"], p["SLEN"]):
        require(abs(dist(x[a], x[b]) - length) <= 1e-9 * max(1.0, length), f"skip ({a}, {b})")
    # d_geo: 0 on the held particles, no shorter than the straight line to the held particle it names,
    # and changing along an edge by at most the edge (it is a shortest path along the edges).
    d = p["DGEO"]
    for i in range(n):
        if i in held:
            require(d[i] == 0 and p["NHLD"][i] == i, f"held particle {i}: d_geo {d[i]}")
        elif math.isinf(d[i]):
            require(p["NHLD"][i] == NONE, f"particle {i}: d_geo inf but a nearest held")
        else:
            c = p["NHLD"][i]
            require(c in held, f"particle {i}: nearest held {c} is not held")
            require(d[i] >= dist(x[i], x[c]) * (1 - 1e-12), f"particle {i}: d_geo {d[i]} shorter than the line {dist(x[i], x[c])}")
    for (a, b), length in zip(p["EDGE"], p["ELEN"]):
        if not (math.isinf(d[a]) or math.isinf(d[b])):
            require(abs(d[a] - d[b]) <= length * (1 + 1e-9), f"d_geo jumps {abs(d[a] - d[b])} over edge ({a}, {b}) of {length}")
    # Colours: contiguous ranges covering the particles; no row joins two free particles of one colour.
    ranges = p["COLR"]
    require(ranges[0] == 0 and ranges[-1] == n and all(a <= b for a, b in zip(ranges, ranges[1:])), f"colour ranges {ranges}")
    colour = [0] * n
    for c in range(len(ranges) - 1):
        for i in range(ranges[c], ranges[c + 1]):
            colour[i] = c
    pairs = [tuple(e) for e in p["EDGE"]] + [tuple(s) for s in p["SKIP"]]
    for h in p["HNGE"]:
        pairs += [(h[i], h[j]) for i in range(4) for j in range(i + 1, 4)]
    for t in p["TRIS"]:
        pairs += [(t[0], t[1]), (t[1], t[2]), (t[0], t[2])]
    for a, b in pairs:
        require(a in held or b in held or colour[a] != colour[b], f"particles {a} and {b}: one colour, coupled")
    # A sheet's render binding: every kept source vertex rides a proxy triangle with weights that sum to 1.
    for t, (u, v, _h) in zip(p["BTRI"], p["BCRD"]):
        if t != NONE:
            require(t < len(p["TRIS"]) and -1e-6 <= u and -1e-6 <= v and u + v <= 1 + 1e-6, f"binding ({t}, {u}, {v})")
    return held


# ---- glTF 2.0 (a grown model) ------------------------------------------------------------------------

COMPONENT = {5120: ("b", 1, 127.0), 5121: ("B", 1, 255.0), 5122: ("h", 2, 32767.0), 5123: ("H", 2, 65535.0),
             5125: ("I", 4, None), 5126: ("f", 4, None)}
WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


def read_glb(path):
    data = open(path, "rb").read()
    require(data[:4] == b"glTF", f"{path}: not a GLB")
    magic, version, length = struct.unpack_from("<III", data, 0)
    require(version == 2 and length == len(data), f"{path}: GLB version {version}, length {length}")
    jlen, jtype = struct.unpack_from("<II", data, 12)
    doc = json.loads(data[20:20 + jlen])
    bin_chunk = b""
    if 20 + jlen < len(data):
        blen, _ = struct.unpack_from("<II", data, 20 + jlen)
        bin_chunk = data[28 + jlen:28 + jlen + blen]
    return doc, bin_chunk


def accessor(doc, bin_chunk, index):
    a = doc["accessors"][index]
    fmt, size, scale = COMPONENT[a["componentType"]]
    width = WIDTH[a["type"]]
    view = doc["bufferViews"][a["bufferView"]]
    stride = view.get("byteStride", size * width)
    base = view.get("byteOffset", 0) + a.get("byteOffset", 0)
    out = []
    for e in range(a["count"]):
        values = struct.unpack_from("<" + fmt * width, bin_chunk, base + e * stride)
        if a.get("normalized") and scale:
            values = tuple(max(v / scale, -1.0) for v in values)
        out.append(values)
    return out


def check_grown_model(path, proxies):
    doc, bin_chunk = read_glb(path)
    names = [n.get("name", "") for n in doc.get("nodes", [])]
    joints_of_skins = [set(s["joints"]) for s in doc.get("skins", [])]
    for garment, p in proxies.items():
        if p["KIND"][0] != 1:
            continue
        for j in p["JNTN"]:
            require(j == "" or j in names, f"{garment}: joint {j} is no node of {os.path.basename(path)}")
        require(sum(1 for j in p["JNTN"] if j) >= 2, f"{garment}: fewer than two joints named")
    skinned = 0
    for node in doc.get("nodes", []):
        if "mesh" not in node or "skin" not in node:
            continue
        skin = doc["skins"][node["skin"]]
        for prim in doc["meshes"][node["mesh"]]["primitives"]:
            attrs = prim["attributes"]
            if "JOINTS_0" not in attrs:
                continue
            sets = [k[len("JOINTS_"):] for k in attrs if k.startswith("JOINTS_")]
            joints = [accessor(doc, bin_chunk, attrs["JOINTS_" + s]) for s in sets]
            weights = [accessor(doc, bin_chunk, attrs["WEIGHTS_" + s]) for s in sets]
            for v in range(len(joints[0])):
                total = sum(sum(w[v]) for w in weights)
                require(abs(total - 1) < 2e-3, f"{os.path.basename(path)}: vertex {v} weights sum to {total}")
                for js, ws in zip(joints, weights):
                    for j, wt in zip(js[v], ws[v]):
                        require(wt == 0 or j < len(skin["joints"]), f"vertex {v}: joint {j} past the skin's {len(skin['joints'])}")
                skinned += 1
    require(skinned > 0, f"{os.path.basename(path)}: no skinned vertex")
    # Every grown chain's joints are in a skin (they carry weights).
    for garment, p in proxies.items():
        if p["KIND"][0] == 1:
            for j in p["JNTN"]:
                if j in names:
                    require(any(names.index(j) in s for s in joints_of_skins), f"{garment}: joint {j} in no skin")


# ---- what a person can check: the shared models' MANIFEST.md -------------------------------------------

# input -> {garment: what MANIFEST.md says of it}. A rig lists its joints in order from its root (the
# authored chains' node names; a grown chain's are weft's), a sheet its source vertex and triangle
# counts where the manifest gives them. Models with none: their garments are none (a negative control,
# a degenerate mesh, a hair slot on the eyebrows, an unrigged bone chain with no garment name).
EXPECTED = {
    "quaternius_animals_Fox.glb": {"Tail1": {"kind": 1, "joints": ["Tail%d" % k for k in range(1, 9)]}},
    "threevrm_sphere_collider/sphere-collider.gltf": {"Spring A": {"kind": 1, "joints": ["Spring A", "Spring B", "Spring C", "Spring D", "Spring E"]}},
    "Godette_vrm_v4.vrm": {"HairBall_Center": {"kind": 1, "joints": ["HairBall_Center", "HairBall_Center_End"]},
                           "Ribbon": {"kind": 1, "joints": ["Ribbon", "Ribbon_end"]}},
    "kaykit_Knight.glb": {"Knight_Cape": {"kind": 0, "vertices": 56, "triangles": 84, "holder": "chest"}},
    "kaykit_banner_blue/banner_blue.gltf": {"banner_blue": {"kind": 0}},
    "quaternius_Goal_Flag.glb": {"Flag": {"kind": 0, "material": "Flag"}},
    "quaternius_umw_Witch.gltf": {"Hair_Black": {"kind": 1, "grown": True}, "skirt": {"kind": 1, "grown": True}},
    "quaternius_men_Casual.glb": {"Hair": {"kind": 1, "grown": True}},
    "quaternius_Hair_Long.fbx": {"MI_Hair_2": {"kind": 1, "grown": True}},
    "quaternius_Superhero_Female_FullBody.fbx": {},
    "quaternius_Couch_Medium2.glb": {},
    "100avatars_cool_loops.vrm": {},
    "assimp_huesitos.fbx": {},
}


def check_model(out, model, expected):
    folder = os.path.join(out, model)
    stem = os.path.splitext(os.path.basename(model))[0]
    sidecar = json.load(open(os.path.join(folder, stem + ".cloth.json")))
    require(sidecar["schema"].startswith("weft.sidecar/"), "sidecar schema")
    garments = {g["name"]: g for g in sidecar["garments"] if g.get("proxy")}
    require(set(garments) == set(expected), f"proxies {sorted(garments)}, expected {sorted(expected)}")
    proxies = {}
    for name, want in expected.items():
        g = garments[name]
        p = read_clothproxy(os.path.join(folder, g["proxy"]))
        proxies[name] = p
        where = f"{model}/{g['proxy']}"
        try:
            held = check_proxy(p, where)
        except Fail as e:
            raise Fail(f"{where}: {e}")
        require(p["GRMT"] == name and p["KIND"][0] == want["kind"], f"{where}: garment {p['GRMT']} kind {p['KIND']}")
        require(g["particles"] == len(p["RPOS"]), f"{where}: sidecar says {g['particles']} particles, the file has {len(p['RPOS'])}")
        if "joints" in want:
            # The chain's joints from the root down: the free particles' joint names, nearest the hold first.
            free = sorted((i for i in range(len(p["RPOS"])) if i not in held), key=lambda i: p["DGEO"][i])
            names = [p["JNTN"][i] for i in range(len(p["RPOS"])) if p["JNTN"][i]]
            for j in want["joints"]:
                require(j in names, f"{where}: joint {j} missing ({names})")
            order = [p["JNTN"][i] for i in free if p["JNTN"][i] in want["joints"]]
            held_names = [p["JNTN"][i] for i in held if p["JNTN"][i] in want["joints"]]
            require(held_names + order == want["joints"] or order == want["joints"][len(held_names):],
                    f"{where}: joints by distance from the hold {held_names + order}, expected {want['joints']}")
        if "vertices" in want:
            require(len(p["RPOS"]) == want["vertices"], f"{where}: {len(p['RPOS'])} particles, the mesh has {want['vertices']} vertices")
            require(len(p["TRIS"]) == want["triangles"], f"{where}: {len(p['TRIS'])} triangles, the mesh has {want['triangles']}")
        if "holder" in want:
            require(set(p["PINH"]) == {want["holder"]}, f"{where}: held by {p['PINH']}, expected {want['holder']}")
        if "material" in want:
            require(set(p["SMMT"]) == {want["material"]}, f"{where}: materials {p['SMMT']}")
    grown = os.path.join(folder, stem + ".glb")
    if any(w.get("grown") for w in expected.values()):
        require(os.path.exists(grown), f"{model}: no grown model")
        check_grown_model(grown, proxies)
    return len(proxies)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: golden_outputs.py OUT")
    out = sys.argv[1]
    if not os.path.exists(os.path.join(out, "bake-report.json")):
        print(f"golden_outputs: no bake at {out}: skipped")
        sys.exit(77)
    report = json.load(open(os.path.join(out, "bake-report.json")))
    inputs = {m["input"]: m for m in report["models"]}
    require(set(inputs) == set(EXPECTED), f"models {sorted(set(inputs) ^ set(EXPECTED))} not as expected")
    failures, proxies = [], 0
    for model, expected in EXPECTED.items():
        try:
            require(inputs[model]["status"] == "built", f"{model}: {inputs[model]['status']}")
            proxies += check_model(out, model, expected)
        except Fail as e:
            failures.append(f"{model}: {e}")
    for f in failures:
        print("golden_outputs: " + f)
    if failures:
        sys.exit(1)
    print(f"golden_outputs: {len(EXPECTED)} models, {proxies} proxies read and checked")


if __name__ == "__main__":
    try:
        main()
    except Fail as e:
        print(f"golden_outputs: {e}")
        sys.exit(1)
