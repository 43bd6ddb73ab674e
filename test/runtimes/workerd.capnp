# The workerd config of the runtime matrix's workerd row: workerd.mjs copies it next to the bundled
# worker.js and serves it with `workerd serve workerd.capnp --control-fd=3`.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "smoke", worker = .smoke),
    # The worker's global fetch() goes through the "internet" service, which allows public addresses
    # only (against SSRF) and so refuses the mock on 127.0.0.1: this one allows the loopback only.
    (name = "loopback", network = (allow = ["local"])),
  ],
  # Port 0: workerd reports the port it got on the control descriptor.
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "smoke")],
);

const smoke :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  # The pinned workerd's release date: one newer than the binary supports would fail to start.
  compatibilityDate = "2026-11-17",
  globalOutbound = "loopback",
  # Set by workerd.mjs in workerd's environment: the same variables the other rows' smoke.mjs reads.
  bindings = [
    (name = "CONVO_BASE_URL", fromEnvironment = "CONVO_BASE_URL"),
    (name = "CONVO_API_TOKEN", fromEnvironment = "CONVO_API_TOKEN"),
    (name = "WORKERD_VERSION", fromEnvironment = "WORKERD_VERSION"),
  ],
);
