"""Unit tests of the variant samplers, the weight stripping and the store writer.

    /usr/bin/python3 -B -m unittest discover -s tools/profile -p 'test_*.py'

(run by tests/t_store.sh).  Sampler tests are pure Python; a few build a tiny
network with torch to check that specs really construct.
"""
import json
import os
import random
import sqlite3
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True

import families  # noqa: E402
import store  # noqa: E402

TORCHVISION_CLASSIFIERS = ("alexnet", "convnext", "densenet", "efficientnet", "efficientnet_v2", "googlenet",
                           "inception", "maxvit", "mnasnet", "mobilenet_v2", "mobilenet_v3", "regnet", "resnet",
                           "resnext", "shufflenet_v2", "squeezenet", "swin", "vgg", "vit", "wide_resnet")


class Samplers(unittest.TestCase):
    def test_every_family(self):
        self.assertEqual(sorted(families.FAMILIES), sorted(TORCHVISION_CLASSIFIERS))
        for fam in families.FAMILIES:
            self.assertTrue(families.stock(fam), fam)

    def test_deterministic_and_prefix_stable(self):
        for fam in families.FAMILIES:
            a = families.variants(fam, 6, seed=3)
            b = families.variants(fam, 6, seed=3)
            self.assertEqual([families.spec_json(s) for s in a], [families.spec_json(s) for s in b], fam)
            c = families.variants(fam, 3, seed=3)
            self.assertEqual([families.spec_json(s) for s in c], [families.spec_json(s) for s in a[:3]], fam)

    def test_seed_changes_sampled_variants(self):
        for fam in ("resnet", "vit", "swin", "efficientnet", "densenet", "regnet", "convnext", "mobilenet_v3"):
            a = families.variants(fam, 5, seed=1, stock_first=False)
            b = families.variants(fam, 5, seed=2, stock_first=False)
            self.assertNotEqual([families.spec_hash(s) for s in a], [families.spec_hash(s) for s in b], fam)

    def test_distinct_and_json(self):
        for fam in families.FAMILIES:
            specs = families.variants(fam, 30, seed=0)
            ids = {families._identity(s) for s in specs}
            self.assertEqual(len(ids), len(specs), fam)
            for s in specs:
                self.assertEqual(json.loads(families.spec_json(s)), s)
                self.assertEqual(s["family"], fam)
                self.assertTrue(families.valid_resolution(fam, s["resolution"]), (fam, s["resolution"]))

    def test_thousands_of_distinct_specs(self):
        # the unlabeled corpus needs >= 5,000 distinct graphs from the same samplers
        total = 0
        for fam in families.FAMILIES:
            total += len(families.variants(fam, 400, seed=0, max_tries=20))
        self.assertGreaterEqual(total, 5000)

    def test_resolutions_respected(self):
        for fam in ("resnet", "mobilenet_v2", "densenet", "swin"):
            for s in families.variants(fam, 8, seed=0, resolutions=(64,), stock_first=False):
                self.assertEqual(s["resolution"], 64)
        # vit rounds to its patch; VGG/AlexNet only export at some sizes
        for s in families.variants("vit", 8, seed=0, resolutions=(96,)):
            self.assertEqual(s["resolution"] % s["args"]["patch_size"], 0)
        self.assertEqual(families.variants("vgg", 1, seed=0, resolutions=(64,))[0]["resolution"], 224)
        self.assertTrue(families.valid_resolution("alexnet", 224))
        self.assertFalse(families.valid_resolution("alexnet", 128))
        self.assertFalse(families.valid_resolution("vgg", 160))

    def test_stock_configurations(self):
        r18 = families.variants("resnet", 1, seed=0)[0]
        self.assertEqual(r18["stock"], "resnet18")
        self.assertEqual(r18["args"]["layers"], [2, 2, 2, 2])
        self.assertEqual(r18["resolution"], 224)
        self.assertEqual(families.variant_name(r18), "resnet18@224")
        inc = families.variants("inception", 1, seed=0)[0]
        self.assertEqual(inc["resolution"], 299)
        self.assertEqual(len(families.variants("resnet", 4, seed=0, stock_max=1)), 4)
        self.assertNotIn("stock", families.variants("resnet", 2, seed=0, stock_max=1)[1])

    def test_every_sampled_spec_builds(self):
        # constructor argument constraints (e.g. BasicBlock needs width_per_group 64), checked
        # without building the big ones: meta-init through torch.device('meta') is not available
        # to torchvision constructors in torch 1.13, so build a few small ones of every family
        import torch
        for fam in families.FAMILIES:
            for s in families.variants(fam, 2, seed=0, resolutions=(64,), stock_first=False):
                if fam in ("vgg", "alexnet", "wide_resnet"):
                    continue  # large classifiers/weights; their argument space is fixed above
                try:
                    families.build(s)
                except Exception as e:  # pragma: no cover - reported with the spec
                    self.fail("%s: %s: %s" % (fam, families.spec_json(s), e))
        del torch

    def test_unknown_family(self):
        with self.assertRaises(ValueError):
            families.sample("nope", random.Random(0))


class Build(unittest.TestCase):
    """Specs construct through torchvision's classes (small ones, a forward pass each)."""

    def test_build_and_count(self):
        import torch
        torch.set_num_threads(1)
        tiny = {"family": "resnet", "ctor": "ResNet", "resolution": 32,
                "args": {"block": "BasicBlock", "layers": [1, 1, 1, 1], "groups": 1, "width_per_group": 64}}
        m = families.build(tiny).eval()
        # by hand: stem 9,536 + layer1 73,984 + layer2 230,144 + layer3 919,040 + layer4 3,673,088 + fc 513,000
        self.assertEqual(families.count_params(m), 5418792)
        with torch.no_grad():
            self.assertEqual(tuple(m(torch.randn(1, 3, 32, 32)).shape), (1, 1000))
        for fam in ("mobilenet_v3", "vit", "efficientnet_v2", "shufflenet_v2"):
            s = families.variants(fam, 3, seed=0, resolutions=(64,), stock_first=False)[0]
            r = s["resolution"]
            with torch.no_grad():
                y = families.build(s).eval()(torch.randn(1, 3, r, r))
            self.assertEqual(tuple(y.shape), (1, 1000), fam)


class Strip(unittest.TestCase):
    def test_strip_keeps_dims_drops_bytes(self):
        import onnx
        from onnx import TensorProto, helper, numpy_helper
        import numpy as np
        import onnxexport
        w = numpy_helper.from_array(np.ones((8, 4), dtype=np.float32), "w")
        shape = numpy_helper.from_array(np.array([1, 32], dtype=np.int64), "shape")
        g = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"]),
                               helper.make_node("Reshape", ["y", "shape"], ["z"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch_size", 8])],
                              [helper.make_tensor_value_info("z", TensorProto.FLOAT, None)], [w, shape])
        m = helper.make_model(g)
        removed = onnxexport.strip_weights(m)
        self.assertEqual(removed, 8 * 4 * 4)
        t = {x.name: x for x in m.graph.initializer}
        self.assertEqual(list(t["w"].dims), [8, 4])
        self.assertEqual(t["w"].data_location, TensorProto.EXTERNAL)
        self.assertFalse(t["w"].raw_data)
        ext = {e.key: e.value for e in t["w"].external_data}
        self.assertEqual(ext["length"], "128")
        self.assertEqual(ext["location"], onnxexport.LOCATION)
        # the small integer tensor shapes depend on stays inline
        self.assertNotEqual(t["shape"].data_location, TensorProto.EXTERNAL)
        self.assertEqual(list(numpy_helper.to_array(t["shape"])), [1, 32])
        self.assertLess(len(m.SerializeToString()), 400)
        del onnx

    def test_graph_file_is_content_hashed(self):
        import hashlib
        import onnxexport
        with tempfile.TemporaryDirectory() as d:
            h, p = onnxexport.write_graph(b"abc", d)
            self.assertEqual(h, hashlib.sha256(b"abc").hexdigest())
            self.assertEqual(os.path.basename(p), h + ".onnx")
            self.assertEqual(oct(os.stat(p).st_mode & 0o777), "0o644")
            self.assertEqual(onnxexport.write_graph(b"abc", d), (h, p))


class StoreWriter(unittest.TestCase):
    def test_schema_version_and_transaction(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "s.sqlite")
            st = store.Store(p)
            did, name = st.device("cpu-x", "cpu", "X", {"model": "X", "cores": 2})
            self.assertEqual(st.device("cpu-x", "cpu", "X", {"model": "X", "cores": 2}), (did, name))
            did2, name2 = st.device("cpu-x", "cpu", "X", {"model": "X", "cores": 4})
            self.assertNotEqual(did2, did)
            self.assertTrue(name2.startswith("cpu-x~"))
            mid = st.add_model("s1", "h1", "resnet", "r@32", "{}", "graphs/h1.onnx", {"shape": []}, 10, 100)
            self.assertEqual(st.add_model("s2", "h1", "resnet", "r@32", "{}", "graphs/h1.onnx", {}, 10, 100), mid)
            self.assertEqual(st.model_by_spec("s2")["id"], mid)
            cfg = store.config_key("infer", 8)
            self.assertEqual(cfg, "mode=infer,batch=8,seq=0,dtype=float32")
            run = {"model_id": mid, "device_id": did, "mode": "infer", "batch": 8, "seq": 0, "dtype": "float32",
                   "config": cfg, "harness": "t", "versions": "{}", "started": store.utc_now(), "outcome": "ok"}
            rid = st.add_run(run, [{"metric": "latency_ms", "n": 2, "mean": 1.0, "samples": [1.0, 1.0]},
                                   {"metric": "energy_j", "n": 0, "source": "unavailable"}])
            self.assertTrue(st.has_run(mid, did, cfg))
            # a failing measurement insert rolls the whole run back
            with self.assertRaises(sqlite3.IntegrityError):
                st.add_run(dict(run, config=store.config_key("infer", 16)),
                           [{"metric": "latency_ms", "n": 1}, {"metric": "latency_ms", "n": 1}])
            self.assertFalse(st.has_run(mid, did, store.config_key("infer", 16)))
            # the same key twice is refused (resume keys), a repeat is not
            with self.assertRaises(sqlite3.IntegrityError):
                st.add_run(run, [])
            st.add_run(dict(run, repeat_of=rid), [])
            st.close()
            db = sqlite3.connect(p)
            self.assertEqual(db.execute("PRAGMA user_version").fetchone()[0], store.SCHEMA_VERSION)
            self.assertEqual(db.execute("PRAGMA application_id").fetchone()[0], store.APPLICATION_ID)
            self.assertEqual(db.execute("PRAGMA journal_mode").fetchone()[0], "delete")
            u = db.execute("SELECT unit, mean FROM measurements WHERE metric = 'energy_j'").fetchone()
            self.assertEqual(u, ("J", None))
            db.execute("PRAGMA user_version = 7")
            db.commit()
            db.close()
            with self.assertRaises(store.StoreError) as cm:
                store.Store(p)
            self.assertIn("version 7", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
