// CMC-KB pages: citation popovers that open on click as well as hover, and the SPARQL editor.
"use strict";

function toggleCitation(button) {
  const open = !button.classList.contains("open");
  document.querySelectorAll(".cite.open").forEach((b) => { b.classList.remove("open"); b.setAttribute("aria-expanded", "false"); });
  if (open) { button.classList.add("open"); button.setAttribute("aria-expanded", "true"); }
}

function cellText(cell) {
  if (!cell) return "";
  if (cell.type === "literal" && cell["xml:lang"]) return `${cell.value} @${cell["xml:lang"]}`;
  return cell.value;
}

function renderResults(target, data) {
  target.replaceChildren();
  if (typeof data.boolean === "boolean") {
    const p = document.createElement("p");
    p.textContent = `ASK result: ${data.boolean}`;
    target.append(p);
    return 1;
  }
  const vars = data.head.vars;
  const table = document.createElement("table");
  table.className = "results";
  const head = table.createTHead().insertRow();
  vars.forEach((v) => { const th = document.createElement("th"); th.textContent = v; head.append(th); });
  const body = table.createTBody();
  data.results.bindings.forEach((binding) => {
    const row = body.insertRow();
    vars.forEach((v) => {
      const td = row.insertCell();
      const cell = binding[v];
      if (cell && cell.type === "uri") {
        const a = document.createElement("a");
        a.href = cell.value.includes("/entity/") ? `/entity?iri=${encodeURIComponent(cell.value)}` : cell.value;
        a.textContent = cell.value;
        td.append(a);
      } else {
        td.textContent = cellText(cell);
      }
    });
  });
  target.append(table);
  return data.results.bindings.length;
}

async function runSparql(event) {
  if (event) event.preventDefault();
  const text = document.getElementById("sparql-text").value;
  const status = document.getElementById("sparql-status");
  const target = document.getElementById("sparql-results");
  status.className = "";
  status.textContent = "running…";
  const started = performance.now();
  try {
    const response = await fetch("/sparql", {
      method: "POST",
      headers: { "Content-Type": "application/sparql-query", Accept: "application/sparql-results+json" },
      body: text,
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    const rows = renderResults(target, body);
    status.textContent = `${rows} row(s) in ${Math.round(performance.now() - started)} ms`;
  } catch (error) {
    target.replaceChildren();
    status.className = "error";
    status.textContent = `Error: ${error.message}`;
  }
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll(".cite").forEach((b) => b.addEventListener("click", (e) => {
    if (e.target.closest("a")) return;
    toggleCitation(b);
  }));
  const form = document.getElementById("sparql-form");
  if (form) {
    form.addEventListener("submit", runSparql);
    document.getElementById("sparql-text").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) runSparql(e);
    });
    const picker = document.getElementById("sparql-template");
    if (picker) picker.addEventListener("change", () => {
      const option = picker.selectedOptions[0];
      if (option && option.dataset.sparql) document.getElementById("sparql-text").value = option.dataset.sparql;
    });
  }
});
