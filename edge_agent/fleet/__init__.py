"""What a fleet operator sees of a gateway: Prometheus metrics, the audit trail, Home Assistant discovery.

`hooks.FleetHooks` is the one object the daemon calls (a few calls, each a counter or one INSERT in a
transaction the daemon opens anyway); what the agent does reaches the metrics through its own hooks
(`edge_agent.observers`), which `FleetHooks.start` points at them.
"""
