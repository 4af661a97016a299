"""cProfile of one saved-state first question (max_steps 1); run twice on one state dir, keep the second:
    flock /tmp/edge-model.lock .venv/bin/python PATH/profile_first_step.py /tmp/prof-state
"""
import sys, time, cProfile, pstats
sys.path.insert(0, str(__import__('pathlib').Path(__file__).resolve().parents[3]))
from pathlib import Path
from edge_agent.app import EdgeAgent
from edge_agent.commands.bench import embedded_simulator
from edge_agent.config import load_settings
from edge_agent.llm.models import load_model
Q = "Get Chiller 6 and Chiller 9 Tonnage from last week at POKMAIN in a single file."
settings = load_settings(overrides={"paths": {"state_dir": sys.argv[1]}, "model": {"persist_prefix_cache": True}})
llm = load_model(settings)
with embedded_simulator(settings) as live:
    agent = EdgeAgent(live, llm=llm)
    pr = cProfile.Profile(); t = time.time(); pr.enable()
    r = agent.ask(Q, now="2020-06-08T09:00:00-04:00", strategy="react", max_steps=1, max_trials=1)
    pr.disable(); print("ask s", time.time() - t, r.metrics.eval_ms, r.metrics.gen_ms, r.metrics.state_ms, r.metrics.tool_ms, r.metrics.python_ms)
pstats.Stats(pr).sort_stats("cumulative").print_stats(45)
