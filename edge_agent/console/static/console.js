// edge-agent console: follows one request live (server-sent events carrying the daemon's MQTT replies) and shows
// its answer with provenance links, plots and files. Everything from the request, the model or the data is put
// into the page as text (textContent), never as HTML.
"use strict";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c ?? "")));
  return node;
}

function csrf() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.content : "";
}

async function post(url, body) {
  const r = await fetch(url, {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf()}, body: JSON.stringify(body || {})});
  if (!r.ok) throw new Error(await r.text());
  return r.json();
}

// The answer's text with each figure or name it states linked to the step it came from.
function answerWithProvenance(text, claims, runId) {
  const frag = document.createDocumentFragment();
  const spans = [];
  // longer claims first: a whole name ("Chiller 4") is one link, not its number alone
  const ordered = (claims || []).filter(c => c.text).sort((a, b) => b.text.length - a.text.length);
  for (const c of ordered) {
    let from = 0, at;
    while ((at = text.indexOf(c.text, from)) >= 0) {
      if (!spans.some(s => at < s.end && at + c.text.length > s.start)) {
        spans.push({start: at, end: at + c.text.length, claim: c});
        break;
      }
      from = at + 1;
    }
  }
  spans.sort((a, b) => a.start - b.start);
  let pos = 0;
  for (const s of spans) {
    frag.append(text.slice(pos, s.start));
    const c = s.claim;
    let node;
    if (c.source === "observation" && c.trial && c.step !== null && c.step !== undefined) {
      node = el("a", {class: "claim", href: `/runs/${encodeURIComponent(runId)}#step-${c.trial}-${c.step}`,
                      title: `from trial ${c.trial}, step ${c.step} (${c.tool || "observation"})`}, text.slice(s.start, s.end));
    } else if (c.source) {
      node = el("span", {class: "claim", title: `from the ${c.source}`}, text.slice(s.start, s.end));
    } else {
      node = el("span", {class: "claim ungrounded", title: "no evidence of this run"}, text.slice(s.start, s.end));
    }
    frag.append(node);
    pos = s.end;
  }
  frag.append(text.slice(pos));
  return frag;
}

// What a step does, in words (edge_agent/console/present.py `doing` does the same for the run page).
function value(v) {
  if (Array.isArray(v)) return v.map(value).join(", ");
  if (v !== null && typeof v === "object") return JSON.stringify(v);
  const t = String(v);
  return t.length <= 80 ? t : t.slice(0, 77) + "...";
}

function doing(action, input) {
  if (typeof input === "string") { try { input = JSON.parse(input); } catch (e) { /* as it is */ } }
  if (!action) return "No action";
  if (action === "Finish") return "Writes the answer";
  if (action.toLowerCase().replace("-", "") === "selfask") {
    const q = input && typeof input === "object" ? input.question : input;
    return q ? `Asks itself: ${value(q)}` : "Asks itself a question";
  }
  if (action === "agentask") return "Asks the requester a question";
  if (input && typeof input === "object" && Object.keys(input).length) {
    const args = Object.entries(input).filter(([, v]) => !(v === null || v === "" || (Array.isArray(v) && !v.length)))
      .map(([k, v]) => `${k.replaceAll("_", " ")} ${value(v)}`).join("; ");
    return args ? `Calls ${action} with ${args}` : `Calls ${action}`;
  }
  return `Calls ${action}`;
}

// A thought's masked guesses read as phrases (edge_agent/console/present.py `tidy_masked` does the same).
function tidyMasked(text) {
  const M = "[unverified]";
  if (!text || !text.includes(M)) return text || "";
  return text
    .replace(/["'\u201c\u2018\u00ab]\s*\[unverified\]\s*["'\u201d\u2019\u00bb]/g, M)
    .replace(/\[unverified\](?:(?:\s*[,;/]\s*|\s+(?:and|or)\s+|\s+)\[unverified\])+/g, M)
    .replace(/\b(a|an|the) \[unverified\] (\w+)/g, (m, art, noun) =>
      `${art === "the" ? art : (/^[aeiou]/i.test(noun) ? "an" : "a")} ${noun} of an ${M} kind`);
}

function setStatus(node, status, label, meaning) {
  node.textContent = label || status;
  node.className = `badge status-${["answered", "refused", "partial", "gave_up", "failed", "cancelled", "error"].includes(status) ? status : "other"}`;
  if (meaning) node.title = meaning;
}

function followRequest(box) {
  const rid = box.dataset.requestId;
  const state = document.getElementById("state");
  const steps = document.getElementById("steps");
  const seen = new Set();
  const source = new EventSource(`/api/requests/${encodeURIComponent(rid)}/events`);
  source.addEventListener("reply", ev => {
    const r = JSON.parse(ev.data);
    if (r.reply_id && seen.has(r.reply_id)) return;
    seen.add(r.reply_id);
    show(r);
  });
  source.addEventListener("end", () => source.close());
  source.addEventListener("gone", () => { source.close(); location.reload(); });

  function show(r) {
    if (r.kind === "accepted") {
      state.textContent = r.state === "running" ? "running" : `queued (${r.position} before it)`;
    } else if (r.kind === "progress") {
      state.textContent = "running";
      const li = el("li", {class: `step event-${r.event}${r.ok ? "" : " failed"}`});
      if (r.event === "step") {
        li.append(el("div", {class: "where"}, `trial ${r.trial} · step ${r.step}` + (r.by === "code" ? " · written by code" : "")),
                  el("div", {class: "doing"}, doing(r.action, r.action_input)),
                  el("div", {class: "thought"}, el("b", {}, "Thought "), tidyMasked(r.thought)),
                  el("div", {class: "action"}, el("b", {}, "Action "), el("code", {}, r.action), " ",
                     el("code", {class: "input"}, r.action_input === null ? "" : JSON.stringify(r.action_input))),
                  el("div", {class: "observation"}, el("b", {}, "Observation "), r.observation));
      } else {
        li.append(el("div", {class: "where"}, r.event), el("div", {}, r.text));
      }
      steps.append(li);
    } else if (r.kind === "question") {
      document.getElementById("agent-question").hidden = false;
      document.getElementById("agent-question-text").textContent = r.question;
    } else if (r.kind === "result") {
      setStatus(state, r.shown_status || r.status, r.status_label, r.status_meaning);
      document.getElementById("result").hidden = false;
      document.getElementById("agent-question").hidden = true;
      const answer = document.getElementById("answer");
      answer.textContent = "";
      answer.className = `answer status-${r.shown_status || r.status}`;
      if (r.answer) { answer.hidden = false; answer.append(answerWithProvenance(r.answer, r.provenance, r.run_id)); }
      if (r.error) { const e = document.getElementById("error"); e.hidden = false; e.textContent = r.error; }
      if (r.run_id) {
        const link = document.getElementById("run-link");
        link.hidden = false;
        link.querySelector("a").href = `/runs/${encodeURIComponent(r.run_id)}`;
      }
      const files = document.getElementById("files"), plots = document.getElementById("plots");
      if ((r.files || []).length) document.getElementById("files-box").hidden = false;
      (r.files || []).forEach((f, i) => {
        const href = `/files/${encodeURIComponent(r.run_id)}/${encodeURIComponent(f.name)}`;
        files.append(el("li", {}, el("a", {class: "download", href, "data-sha256": f.sha256}, f.name),
                        ` · ${f.size} bytes · sha256 `, el("code", {class: "sha256", id: `sha-${i + 1}`}, f.sha256), " ",
                        el("button", {type: "button", class: "copy", "data-copy": `sha-${i + 1}`}, "Copy")));
        if (f.name.endsWith(".svg")) {
          plots.append(el("figure", {class: "plot"}, el("img", {src: href + "?inline=1", alt: "plot of the series the answer read"})));
        }
      });
    } else if (r.kind === "error" && r.final !== false) {
      setStatus(state, r.shown_status || "error", r.status_label, r.status_meaning);
      let e;
      if ((r.shown_status || "error") === "error") {
        // the request itself was refused: said above the question (a long question is folded below it)
        e = document.getElementById("refusal");
      } else {  // the run failed outside the gateway (the SkySpark, the disk): its outcome, where an answer goes
        document.getElementById("result-title").textContent = "Outcome";
        document.getElementById("result").hidden = false;
        e = document.getElementById("error");
      }
      e.hidden = false;
      e.textContent = `${r.code}: ${r.message}`;
    } else if (r.kind === "error") {
      steps.append(el("li", {class: "step failed"}, `${r.code}: ${r.message}`));
    } else if (r.kind === "cancelled") {
      setStatus(state, "cancelled", r.status_label, r.status_meaning);
      document.getElementById("result-title").textContent = "Outcome";
      document.getElementById("result").hidden = false;
      const n = document.getElementById("status-note");
      n.hidden = false;
      n.className = "status-note status-cancelled";
      n.textContent = r.message;
    }
    if (["result", "cancelled"].includes(r.kind) || (r.kind === "error" && r.final !== false)) {
      const b = document.getElementById("cancel-button");
      if (b) b.hidden = true;
    }
  }

  const cancel = document.getElementById("cancel-button");
  if (cancel) cancel.addEventListener("click", () => post(`/api/requests/${encodeURIComponent(rid)}/cancel`)
    .then(() => { state.textContent = "cancelling…"; }, e => { state.textContent = e.message; }));
  const form = document.getElementById("answer-form");
  if (form) form.addEventListener("submit", ev => {
    ev.preventDefault();
    const text = document.getElementById("answer-text").value;
    post(`/api/requests/${encodeURIComponent(rid)}/answer`, {answer: text})
      .then(() => { document.getElementById("agent-question").hidden = true; }, e => alert(e.message));
  });
}

// Copy a full sha256 (buttons next to each file).
document.addEventListener("click", ev => {
  const b = ev.target.closest && ev.target.closest("button.copy");
  if (!b) return;
  const text = document.getElementById(b.dataset.copy).textContent;
  const done = () => { b.textContent = "Copied"; setTimeout(() => { b.textContent = "Copy"; }, 1500); };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, () => {});
  else {
    const range = document.createRange();
    range.selectNodeContents(document.getElementById(b.dataset.copy));
    const sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(range);
    try { document.execCommand("copy"); done(); } catch (e) { /* selected: the operator copies it */ }
  }
});

// The Ask button is off, with the reason beside it, while the console has no broker connection (/healthz).
function watchBroker(button) {
  const reason = document.getElementById("ask-disabled-reason");
  const check = () => fetch("/healthz", {credentials: "same-origin", cache: "no-store"})
    .then(r => r.json()).then(h => {
      button.disabled = !h.broker;
      button.title = h.broker ? "" : "the console is not connected to the broker";
      if (reason) reason.hidden = !!h.broker;
      const gw = document.getElementById("gw-broker");
      if (gw) {
        gw.className = h.broker ? "ok" : "bad";
        gw.replaceChildren(el("b", {}, "Broker"), h.broker ? " connected" : " not connected");
      }
    }, () => {});
  setInterval(check, 3000);
}

document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("request");
  if (box) followRequest(box);
  const askButton = document.getElementById("ask-button");
  if (askButton) watchBroker(askButton);
  highlightStep();
  window.addEventListener("hashchange", highlightStep);  // a provenance link on the run page itself
});

function highlightStep() {
  if (!location.hash.startsWith("#step-")) return;
  for (const old of document.querySelectorAll(".step.highlight")) old.classList.remove("highlight");
  const target = document.getElementById(location.hash.slice(1));
  if (target) { target.classList.add("highlight"); target.scrollIntoView({block: "center"}); }
}
