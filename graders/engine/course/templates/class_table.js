// The class page's student table: sort by a column, filter by what a TA looks for, find a
// name. It reads only the table the kit wrote (data-* attributes, escaped by Jinja2) and
// changes only which rows show and in what order; it sets no HTML and fetches nothing. The
// page's Content-Security-Policy allows this script alone (by its hash). The state is kept in
// the address: index.html#filter=look&sort=score-desc&find=smith
(function () {
  "use strict";
  var table = document.getElementById("student-table");
  var controls = document.getElementById("student-controls");
  if (!table || !controls) {
    return;
  }
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
  var buttons = Array.prototype.slice.call(controls.querySelectorAll("button[data-filter]"));
  var find = document.getElementById("student-find");
  var shown = document.getElementById("student-shown");
  var state = {filter: "all", sort: "student", descending: false, find: ""};

  function column(key) {
    for (var i = 0; i < headers.length; i++) {
      if (headers[i].getAttribute("data-key") === key) {
        return i;
      }
    }
    return -1;
  }

  function value(row, index) {
    var cell = row.cells[index];
    var text = cell ? cell.getAttribute("data-sort") : "";
    var number = parseFloat(text);
    return isNaN(number) || String(number) !== text ? (text || "").toLowerCase() : number;
  }

  function compare(index, descending) {
    var name = column("student");
    return function (a, b) {
      var x = value(a, index), y = value(b, index), order = 0;
      if (typeof x === typeof y) {
        order = x < y ? -1 : (x > y ? 1 : 0);
      } else {
        order = typeof x === "number" ? -1 : 1;
      }
      if (descending) {
        order = -order;
      }
      if (order === 0 && index !== name) {
        order = value(a, name) < value(b, name) ? -1 : 1;
      }
      return order;
    };
  }

  function read() {
    var hash = window.location.hash.replace(/^#/, "");
    if (hash.indexOf("=") < 0) {
      return;
    }
    var params = new URLSearchParams(hash);
    var filter = params.get("filter") || "all";
    var sort = params.get("sort") || "student";
    state.filter = filter === "all" || controls.querySelector(
      "button[data-filter='" + filter.replace(/[^a-z-]/g, "") + "']") ? filter : "all";
    state.descending = /-desc$/.test(sort);
    state.sort = column(sort.replace(/-(desc|asc)$/, "")) >= 0
      ? sort.replace(/-(desc|asc)$/, "") : "student";
    state.find = params.get("find") || "";
    find.value = state.find;
  }

  function write() {
    var params = new URLSearchParams();
    params.set("filter", state.filter);
    params.set("sort", state.sort + (state.descending ? "-desc" : "-asc"));
    if (state.find) {
      params.set("find", state.find);
    }
    window.history.replaceState(null, "", "#" + params.toString());
  }

  function draw() {
    var index = column(state.sort);
    var needle = state.find.trim().toLowerCase();
    var sorted = rows.slice().sort(compare(index, state.descending));
    var count = 0;
    sorted.forEach(function (row) {
      var flags = (row.getAttribute("data-flags") || "").split(" ");
      var match = (state.filter === "all" || flags.indexOf(state.filter) >= 0)
        && (!needle || (row.getAttribute("data-name") || "").indexOf(needle) >= 0);
      row.hidden = !match;
      count += match ? 1 : 0;
      body.appendChild(row);
    });
    headers.forEach(function (header, i) {
      if (header.hasAttribute("data-key")) {
        header.setAttribute("aria-sort", i !== index ? "none"
          : (state.descending ? "descending" : "ascending"));
      }
    });
    buttons.forEach(function (button) {
      button.setAttribute("aria-pressed",
        String(button.getAttribute("data-filter") === state.filter));
    });
    shown.textContent = count + " of " + rows.length + " shown";
    table.setAttribute("data-state", state.filter + " " + state.sort
      + (state.descending ? "-desc" : "-asc"));
  }

  headers.forEach(function (header) {
    var button = header.querySelector("button");
    if (!button) {
      return;
    }
    button.addEventListener("click", function () {
      var key = header.getAttribute("data-key");
      state.descending = state.sort === key ? !state.descending
        : header.getAttribute("data-first") === "desc";
      state.sort = key;
      write();
      draw();
    });
  });
  buttons.forEach(function (button) {
    button.addEventListener("click", function () {
      state.filter = button.getAttribute("data-filter");
      write();
      draw();
    });
  });
  find.addEventListener("input", function () {
    state.find = find.value;
    write();
    draw();
  });
  window.addEventListener("hashchange", function () {
    read();
    draw();
  });
  controls.hidden = false;
  table.classList.add("sortable");
  read();
  draw();
}());
