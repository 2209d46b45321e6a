"""store.py — the measurement store (SQLite), Python writer side.

Schema version 1; docs/store.md documents every table and column.  The C side
(src/data/store.c) reads the same schema and writes it for `dlperf data
import|merge`; both create it from the same DDL (tests/t_store.sh compares the
two).  Writes: WAL journal while open, one transaction per run (run row and
its measurements together), so killing the writer at any moment loses at most
the run in flight.  close() checkpoints and switches the file back to a
rollback journal, so a closed store is one self-contained file.
"""
import json
import os
import sqlite3
import time
import uuid

SCHEMA_VERSION = 1
APPLICATION_ID = 0x444C5053  # "DLPS"

# Keep identical to DLP_STORE_DDL in src/data/store.c.
DDL = """\
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE devices (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('cpu', 'cuda')),
  model TEXT NOT NULL,
  features TEXT NOT NULL,
  host TEXT,
  created TEXT NOT NULL
);
CREATE TABLE models (
  id INTEGER PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  family TEXT NOT NULL,
  variant TEXT NOT NULL,
  spec TEXT NOT NULL,
  onnx_path TEXT,
  input TEXT NOT NULL,
  params INTEGER,
  onnx_bytes INTEGER,
  created TEXT NOT NULL
);
CREATE TABLE specs (
  spec_hash TEXT PRIMARY KEY,
  model_id INTEGER NOT NULL REFERENCES models(id)
);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  uid TEXT NOT NULL UNIQUE,
  model_id INTEGER NOT NULL REFERENCES models(id),
  device_id INTEGER NOT NULL REFERENCES devices(id),
  mode TEXT NOT NULL CHECK (mode IN ('infer', 'train', 'llm')),
  batch INTEGER NOT NULL,
  seq INTEGER NOT NULL DEFAULT 0,
  dtype TEXT NOT NULL DEFAULT 'float32',
  config TEXT NOT NULL,
  warmup INTEGER,
  iters INTEGER,
  cooldown_s REAL,
  threads INTEGER,
  loadavg REAL,
  loadavg_end REAL,
  harness TEXT NOT NULL,
  versions TEXT NOT NULL,
  host TEXT,
  shard TEXT,
  started TEXT NOT NULL,
  wall_s REAL,
  outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'oom', 'error')),
  message TEXT,
  repeat_of INTEGER REFERENCES runs(id)
);
CREATE UNIQUE INDEX runs_key ON runs(model_id, device_id, config) WHERE repeat_of IS NULL;
CREATE INDEX runs_repeat ON runs(repeat_of) WHERE repeat_of IS NOT NULL;
CREATE TABLE measurements (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  metric TEXT NOT NULL,
  unit TEXT NOT NULL,
  n INTEGER NOT NULL,
  mean REAL,
  median REAL,
  std REAL,
  min REAL,
  max REAL,
  source TEXT,
  samples TEXT,
  PRIMARY KEY (run_id, metric)
) WITHOUT ROWID;
"""

# Units by metric name suffix (docs/store.md, "Metrics").
UNITS = (("_ms", "ms"), ("_mb", "MiB"), ("_j", "J"), ("_w", "W"), ("_sps", "1/s"), ("_tps", "tokens/s"),
         ("_mhz", "MHz"), ("_c", "C"))


def unit_of(metric):
    for suf, u in UNITS:
        if metric.endswith(suf):
            return u
    return ""


def config_key(mode, batch, seq=0, dtype="float32"):
    """The canonical configuration string runs are keyed by (with model and device)."""
    return "mode=%s,batch=%d,seq=%d,dtype=%s" % (mode, int(batch), int(seq or 0), dtype)


def utc_now():
    t = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%06dZ" % int((t % 1) * 1e6)


class StoreError(Exception):
    pass


class Store:
    """A store opened for writing (created when missing)."""

    def __init__(self, path, create=True):
        self.path = os.path.abspath(path)
        self.dir = os.path.dirname(self.path)
        exists = os.path.exists(path) and os.path.getsize(path) > 0
        if not exists and not create:
            raise StoreError("%s: no such store" % path)
        os.makedirs(self.dir, exist_ok=True)
        self.db = sqlite3.connect(path, isolation_level=None, timeout=30)
        self.db.row_factory = sqlite3.Row
        try:
            self.db.execute("PRAGMA busy_timeout = 30000")
            ver = self.db.execute("PRAGMA user_version").fetchone()[0]
            app = self.db.execute("PRAGMA application_id").fetchone()[0]
            ntab = self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except sqlite3.DatabaseError as e:
            raise StoreError("%s: not an SQLite database (%s)" % (path, e))
        if ntab == 0:
            self._create()
        elif app != APPLICATION_ID:
            raise StoreError("%s: not a dlperf store (application_id %#x)" % (path, app))
        elif ver != SCHEMA_VERSION:
            raise StoreError("%s: store schema version %d, this harness writes version %d"
                             % (path, ver, SCHEMA_VERSION))
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = FULL")
        self.db.execute("PRAGMA foreign_keys = ON")

    def _create(self):
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            for stmt in _statements(DDL):
                db.execute(stmt)
            db.execute("INSERT INTO meta(key, value) VALUES ('created', ?), ('created_by', ?)",
                       (utc_now(), "dlperf-profile"))
            db.execute("PRAGMA application_id = %d" % APPLICATION_ID)
            db.execute("PRAGMA user_version = %d" % SCHEMA_VERSION)
            db.execute("COMMIT")
        except Exception:
            db.execute("ROLLBACK")
            raise

    # ---- devices, models -------------------------------------------------

    def device(self, name, kind, model, features, host=None):
        """Id of a device by name; added when new.  A name already stored with other
        hardware features gets a suffix (name~<8 hex>) so the two never mix."""
        fj = json.dumps(features, sort_keys=True)
        row = self.db.execute("SELECT id, features FROM devices WHERE name = ?", (name,)).fetchone()
        if row and _same_hw(json.loads(row["features"]), features):
            return row["id"], name
        if row:
            import hashlib
            name = "%s~%s" % (name, hashlib.sha256(fj.encode()).hexdigest()[:8])
            row = self.db.execute("SELECT id FROM devices WHERE name = ?", (name,)).fetchone()
            if row:
                return row["id"], name
        cur = self.db.execute("INSERT INTO devices(name, kind, model, features, host, created) VALUES (?,?,?,?,?,?)",
                              (name, kind, model, fj, host, utc_now()))
        return cur.lastrowid, name

    def model_by_spec(self, spec_hash):
        return self.db.execute("SELECT m.* FROM specs s JOIN models m ON m.id = s.model_id WHERE s.spec_hash = ?",
                               (spec_hash,)).fetchone()

    def add_model(self, spec_hash, graph_hash, family, variant, spec_json, onnx_path, input_desc, params, nbytes):
        """Model id for a graph hash (inserted when new) and the spec -> model link, in one transaction."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute("SELECT id, onnx_path FROM models WHERE hash = ?", (graph_hash,)).fetchone()
            if row:
                mid = row["id"]
                if onnx_path and row["onnx_path"] != onnx_path:
                    db.execute("UPDATE models SET onnx_path = ? WHERE id = ?", (onnx_path, mid))
            else:
                mid = db.execute("INSERT INTO models(hash, family, variant, spec, onnx_path, input, params, "
                                 "onnx_bytes, created) VALUES (?,?,?,?,?,?,?,?,?)",
                                 (graph_hash, family, variant, spec_json, onnx_path, json.dumps(input_desc), params,
                                  nbytes, utc_now())).lastrowid
            db.execute("INSERT OR IGNORE INTO specs(spec_hash, model_id) VALUES (?, ?)", (spec_hash, mid))
            db.execute("COMMIT")
        except Exception:
            db.execute("ROLLBACK")
            raise
        return mid

    # ---- runs ------------------------------------------------------------

    def has_run(self, model_id, device_id, config):
        return self.db.execute("SELECT 1 FROM runs WHERE model_id = ? AND device_id = ? AND config = ? "
                               "AND repeat_of IS NULL", (model_id, device_id, config)).fetchone() is not None

    def run_outcome(self, model_id, device_id, config):
        r = self.db.execute("SELECT id, outcome FROM runs WHERE model_id = ? AND device_id = ? AND config = ? "
                            "AND repeat_of IS NULL", (model_id, device_id, config)).fetchone()
        return (r["id"], r["outcome"]) if r else (None, None)

    def add_run(self, run, measurements, replace_error=False):
        """Insert a run and its measurements in ONE transaction; returns the run id.
        run: dict of runs columns (uid is generated); measurements: list of dicts
        (metric, n, mean, median, std, min, max, source, samples)."""
        db = self.db
        cols = dict(run)
        cols.setdefault("uid", uuid.uuid4().hex)
        keys = sorted(cols)
        db.execute("BEGIN IMMEDIATE")
        try:
            if replace_error and cols.get("repeat_of") is None:
                old = db.execute("SELECT id FROM runs WHERE model_id = ? AND device_id = ? AND config = ? AND "
                                 "repeat_of IS NULL AND outcome = 'error'",
                                 (cols["model_id"], cols["device_id"], cols["config"])).fetchone()
                if old:
                    db.execute("DELETE FROM measurements WHERE run_id = ?", (old[0],))
                    db.execute("UPDATE runs SET repeat_of = NULL WHERE repeat_of = ?", (old[0],))
                    db.execute("DELETE FROM runs WHERE id = ?", (old[0],))
            rid = db.execute("INSERT INTO runs(%s) VALUES (%s)" % (",".join(keys), ",".join("?" * len(keys))),
                             [cols[k] for k in keys]).lastrowid
            for m in measurements:
                db.execute("INSERT INTO measurements(run_id, metric, unit, n, mean, median, std, min, max, source, "
                           "samples) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                           (rid, m["metric"], m.get("unit") or unit_of(m["metric"]), int(m.get("n") or 0),
                            m.get("mean"), m.get("median"), m.get("std"), m.get("min"), m.get("max"),
                            m.get("source"), json.dumps(m["samples"]) if m.get("samples") is not None else None))
            db.execute("COMMIT")
        except Exception:
            db.execute("ROLLBACK")
            raise
        return rid

    def repeat_candidates(self, device_id, rng, n, modes=None):
        """Up to n ok first measurements on a device that have no repeat yet (random, seeded)."""
        q = ("SELECT r.id, r.model_id, r.mode, r.batch, r.seq, r.dtype, r.config, m.spec FROM runs r "
             "JOIN models m ON m.id = r.model_id WHERE r.device_id = ? AND r.repeat_of IS NULL AND r.outcome = 'ok' "
             "AND NOT EXISTS (SELECT 1 FROM runs x WHERE x.repeat_of = r.id) ORDER BY r.id")
        rows = [r for r in self.db.execute(q, (device_id,)).fetchall() if not modes or r["mode"] in modes]
        rng.shuffle(rows)
        return rows[:n]

    def note_sweep(self, info):
        """Keep each invocation's command line in meta (key sweep:<start time>)."""
        self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                        ("sweep:" + info["started"], json.dumps(info, sort_keys=True)))

    def counts(self):
        c = {}
        for t in ("devices", "models", "runs", "measurements"):
            c[t] = self.db.execute("SELECT count(*) FROM %s" % t).fetchone()[0]
        return c

    def close(self):
        """Checkpoint the WAL and leave a self-contained file (rollback journal mode)."""
        if self.db is None:
            return
        try:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self.db.execute("PRAGMA journal_mode = DELETE")
        except sqlite3.OperationalError:
            pass  # another connection still open: it stays in WAL mode, which is fine
        self.db.close()
        self.db = None


def _statements(ddl):
    out, cur = [], []
    for line in ddl.splitlines():
        cur.append(line)
        if line.rstrip().endswith(";"):
            out.append("\n".join(cur))
            cur = []
    return out


_HW_KEYS = ("model", "cores", "threads", "memory_mb", "total_memory_mb", "sm_count", "cc", "name")


def _same_hw(a, b):
    return all(a.get(k) == b.get(k) for k in _HW_KEYS)
