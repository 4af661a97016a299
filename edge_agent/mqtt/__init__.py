"""The gateway daemon's MQTT transport: protocol, durable job queue, service, client, brokers."""
