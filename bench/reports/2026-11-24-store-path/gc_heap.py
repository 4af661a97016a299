"""Objects the real daemon holds after start-up (agent runner: model, tools, prompts), and what a full
collection costs, before and after gc.freeze."""
import gc, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the checkout this report lies in
from edge_agent.config import load_settings
from edge_agent.commands.daemon import make_runner
tmp = tempfile.mkdtemp()
settings = load_settings(None, overrides={"paths": {"state_dir": tmp}}, environ={})
runner = make_runner(sys.argv[1] if len(sys.argv) > 1 else "agent", settings)
def full():
    best = []
    for _ in range(5):
        t = time.perf_counter(); gc.collect(2); best.append((time.perf_counter() - t) * 1000)
    return min(best), max(best)
print("tracked objects", len(gc.get_objects()))
print("full collection ms (min, max of 5)", full())
gc.freeze()
print("frozen", gc.get_freeze_count(), "tracked", len(gc.get_objects()))
print("full collection ms after freeze (min, max of 5)", full())
if hasattr(runner, "warm"):
    runner.warm()
    print("after warm: tracked", len(gc.get_objects()), "full collection ms", full())
    gc.freeze(); print("after a second freeze", full())
