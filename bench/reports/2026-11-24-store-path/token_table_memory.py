"""What building the decoder's token table keeps and peaks at (tracemalloc), for catalog model argv[1]."""
import sys, tracemalloc
from edge_agent.config import load_settings
from edge_agent.llm import llama as L
s = load_settings(None, overrides={"model": {"name": sys.argv[1]}}, environ={})
orig = L.LlamaRuntime._token_table
def traced(self, cached=None):
    tracemalloc.start()
    t = orig(self, cached)
    cur, peak = tracemalloc.get_traced_memory()
    snap = tracemalloc.take_snapshot(); tracemalloc.stop()
    print(f"token table: kept {cur>>20} MB, peak {peak>>20} MB")
    for st in snap.statistics("lineno")[:8]: print("  ", st)
    return t
L.LlamaRuntime._token_table = traced
from edge_agent.llm.models import load_model
load_model(s)
