// @ts-check
/**
 * The donate page's one script. The page is rendered on the server without React in the browser;
 * this keeps what the donor reads current as they fill in the form (totals, fee, match, hints,
 * steppers, toggles), clears a field's error as it is edited, and brings the page's few actions to
 * life (captcha, share, start a fundraiser, the recent-gift notice, fresh totals after Back). The
 * server still decides every figure when the form is posted. Every part checks that its elements
 * exist, so the script does nothing on a page without them.
 */
(() => {
  "use strict";
  // Under `next dev` Next.js sends the framework anyway and React runs the form (the embed's
  // way): this script then stays out of its way. The production page has no __NEXT_DATA__.
  if (document.getElementById("__NEXT_DATA__")) return;

  /**
   * @typedef {{ locale: string, currency: string, decimals: number, org: string,
   *   fee: { PCT_BPS: number, FIXED_CENTS: number },
   *   campaign: { id: string, type: string, minCents: number, ticketPriceCents: number | null,
   *     matchingEnabled: boolean, matchingRatioPct: number, matchingOrgName: string | null, showDonorRoll: boolean },
   *   messages: Record<string, string> }} PageData
   */

  /** @param {string} s @param {ParentNode} [root] @returns {HTMLElement | null} */
  const one = (s, root = document) => root.querySelector(s);
  /** @param {string} s @param {ParentNode} [root] @returns {HTMLElement[]} */
  const all = (s, root = document) => Array.from(root.querySelectorAll(s));
  /** @param {string} s @param {ParentNode} [root] @returns {HTMLInputElement[]} */
  const inputs = (s, root = document) => Array.from(root.querySelectorAll(s));
  /** Sets or removes an attribute, touching the element only when it changes. @param {Element} e @param {string} name @param {string | null} value */
  const attr = (e, name, value) => {
    if (e.getAttribute(name) === value) return;
    if (value === null) e.removeAttribute(name);
    else e.setAttribute(name, value);
  };
  /** @param {Element} e @param {string} name @param {boolean} on */
  const flag = (e, name, on) => attr(e, name, on ? "true" : null);

  /** @type {PageData | null} */
  let data = null;
  try {
    data = JSON.parse(one("#donate-page-data")?.textContent || "null");
  } catch {
    data = null;
  }
  const locale = data?.locale || "en-US";

  // ---------------------------------------------------------------------------------------------
  // Messages: the subset of ICU MessageFormat the catalog uses (arguments, number, select, plural
  // with `#`, and the rich tags <strong> and <num>), turned into DOM nodes, never into HTML.

  const numbers = new Intl.NumberFormat(locale);
  const plurals = new Intl.PluralRules(locale);
  /** @type {Map<string, any[]>} */
  const parsed = new Map();

  /** @param {string} s @returns {any[]} */
  function parse(s) {
    let i = 0;
    const space = () => {
      while (/\s/.test(s[i] || "")) i++;
    };
    const word = () => {
      space();
      const w = (/^[^\s,{}]+/.exec(s.slice(i)) || [""])[0];
      i += w.length;
      space();
      return w;
    };
    /** @param {boolean} plural @returns {any[]} */
    const seq = (plural) => {
      /** @type {any[]} */
      const out = [];
      let text = "";
      const flush = () => {
        if (text) out.push(text);
        text = "";
      };
      while (i < s.length) {
        const c = s[i];
        if (c === "}" || (c === "<" && s[i + 1] === "/")) break;
        const tag = c === "<" ? /^<(\w+)>/.exec(s.slice(i)) : null;
        if (tag) {
          flush();
          i += tag[0].length;
          const kids = seq(plural);
          const end = s.indexOf(">", i);
          i = end < 0 ? s.length : end + 1;
          out.push({ tag: tag[1], kids });
        } else if (c === "{") {
          flush();
          i++;
          out.push(arg(plural));
        } else if (c === "#" && plural) {
          flush();
          out.push({ pound: true });
          i++;
        } else if (c === "'" && s[i + 1] === "'") {
          text += "'";
          i += 2;
        } else if (c === "'" && /[{}<>#|]/.test(s[i + 1] || "")) {
          // A quoted literal, as ICU reads an apostrophe before a syntax character.
          i++;
          while (i < s.length && !(s[i] === "'" && s[i + 1] !== "'")) text += s[i] === "'" ? s[(i += 2) - 1] : s[i++];
          i++;
        } else {
          text += c;
          i++;
        }
      }
      flush();
      return out;
    };
    /** @param {boolean} plural */
    const arg = (plural) => {
      /** @type {{ name: string, type?: string, options?: Record<string, any[]> }} */
      const node = { name: word() };
      if (s[i] === ",") {
        i++;
        node.type = word();
        if (s[i] === "," && (node.type === "select" || node.type === "plural")) {
          i++;
          node.options = {};
          while (i < s.length) {
            const key = word();
            if (!key || s[i] === "}") break;
            if (s[i] !== "{") continue; // "offset:1", which the catalog does not use
            i++;
            node.options[key] = seq(plural || node.type === "plural");
            i++;
            space();
            if (s[i] === "}") break;
          }
        } else {
          while (i < s.length && s[i] !== "}") i++; // a number style: plain numbers only
        }
      }
      i++;
      return node;
    };
    /** @type {any[]} */
    const out = [];
    while (i < s.length) {
      out.push(...seq(false));
      if (i < s.length) out.push(s[i++]); // a stray closing character, kept as text
    }
    return out;
  }

  /**
   * @param {any[]} nodes @param {Record<string, unknown>} values @param {number} num the
   * enclosing plural's number (`#`) @param {string} cls the class of <strong>/<num>
   * @returns {(string | Node)[]}
   */
  function render(nodes, values, num, cls) {
    return nodes.flatMap((node) => {
      if (typeof node === "string") return [node];
      if (node.pound) return [numbers.format(num)];
      if (node.tag) {
        const kids = render(node.kids, values, num, cls);
        if (node.tag !== "strong" && node.tag !== "num") return kids;
        const e = document.createElement(node.tag === "num" ? "span" : "strong");
        if (cls) e.className = cls;
        e.append(...kids);
        return [e];
      }
      const v = values[node.name];
      const options = node.options || {};
      if (node.type === "plural") {
        const n = Number(v);
        return render(options[`=${n}`] || options[plurals.select(n)] || options.other || [], values, n, cls);
      }
      if (node.type === "select") return render(options[String(v)] || options.other || [], values, num, cls);
      if (node.type === "number" || typeof v === "number") return [numbers.format(Number(v))];
      return [v == null ? "" : String(v)];
    });
  }

  /** A catalog message as nodes, or null when the page has no such message. */
  function message(/** @type {string} */ key, /** @type {Record<string, unknown>} */ values = {}, cls = "") {
    const source = data?.messages?.[key];
    if (typeof source !== "string") return null;
    let ast = parsed.get(key);
    if (!ast) parsed.set(key, (ast = parse(source)));
    return render(ast, values, NaN, cls);
  }

  /** A catalog message as plain text. */
  const text = (/** @type {string} */ key, /** @type {Record<string, unknown>} */ values = {}) => {
    const nodes = message(key, values);
    return nodes ? nodes.map((n) => (typeof n === "string" ? n : n.textContent)).join("") : "";
  };

  // The class the server gives <strong> and <num> in each live element, remembered from its own
  // markup; an element that shows no such tag yet borrows the class of another.
  /** @type {WeakMap<Element, string>} */
  const tagClasses = new WeakMap();
  let anyTagClass = "";
  function tagClassOf(/** @type {Element} */ e) {
    const tagged = e.querySelector("strong[class], span[class]:not([data-live])");
    if (tagged) tagClasses.set(e, tagged.className);
    return tagClasses.get(e) || anyTagClass;
  }

  /** Two elements that read the same: the same text, and the same tags with the same classes. */
  function same(/** @type {Element} */ a, /** @type {Element} */ b) {
    if (a.textContent !== b.textContent || a.children.length !== b.children.length) return false;
    return Array.from(a.children).every((x, k) => {
      const y = b.children[k];
      return x.tagName === y.tagName && x.className === y.className && x.textContent === y.textContent;
    });
  }

  /**
   * Words a live element with a message (`key` null: empties it). An element that already reads
   * right is left alone, so the first update after load changes nothing and a live region does
   * not announce what the donor already heard.
   * @param {Element | null | undefined} e @param {string | null} key @param {Record<string, unknown>} [values]
   */
  function put(e, key, values = {}) {
    if (!e) return;
    const nodes = key === null ? [] : message(key, values, tagClassOf(e));
    if (!nodes) return;
    const probe = document.createElement("div");
    probe.append(...nodes);
    if (!same(e, probe)) e.replaceChildren(...probe.childNodes);
  }

  // ---------------------------------------------------------------------------------------------
  // Money, as lib/money.ts reads and writes it.

  /** @type {Map<string, Intl.NumberFormat>} */
  const moneyFormats = new Map();
  function decimalsOf(/** @type {string} */ currency) {
    if (data && currency === data.currency) return data.decimals;
    try {
      return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      return 2;
    }
  }

  /** lib/money.ts formatMoney: minor units as text; `short` drops the decimals of whole amounts. */
  function money(/** @type {number} */ minor, currency = data?.currency || "USD", short = false) {
    const code = currency.toUpperCase();
    const decimals = decimalsOf(code);
    const unit = 10 ** decimals;
    const digits = short && minor % unit === 0 ? 0 : decimals;
    const key = `${code}:${digits}`;
    let f = moneyFormats.get(key);
    if (!f) {
      const fraction = { minimumFractionDigits: digits, maximumFractionDigits: digits };
      try {
        f = new Intl.NumberFormat(locale, { style: "currency", currency: code, ...fraction });
      } catch {
        f = new Intl.NumberFormat("en-US", fraction);
      }
      moneyFormats.set(key, f);
    }
    return f.format(minor / unit);
  }

  /** The sign a currency shows in a locale, or its code (lib/money.ts currencySymbol). */
  function currencySymbol(/** @type {string} */ code, l = "en-US") {
    try {
      const parts = new Intl.NumberFormat(l, { style: "currency", currency: code, currencyDisplay: "narrowSymbol" }).formatToParts(0);
      const sign = parts.find((p) => p.type === "currency")?.value;
      return sign && !/^[A-Z]{2,3}$/.test(sign) && /\S/.test(sign) ? sign : code;
    } catch {
      return code;
    }
  }

  /** @type {{ comma: boolean, marks: string[] } | null} */
  let reading = null;
  /**
   * lib/money.ts parseMoney, for display only: minor units, null when nothing was typed, NaN
   * when the text is not an amount.
   * @param {string} input @returns {number | null}
   */
  function parseMinor(input) {
    const code = (data?.currency || "USD").toUpperCase();
    const decimals = decimalsOf(code);
    if (!reading) {
      let sign = ".";
      const marks = new Set([currencySymbol(code), currencySymbol(code, locale), code, "$", "€", "£", "¥"]);
      try {
        sign = numbers.formatToParts(1.5).find((p) => p.type === "decimal")?.value || ".";
        const part = new Intl.NumberFormat(locale, { style: "currency", currency: code }).formatToParts(0).find((p) => p.type === "currency");
        if (part) marks.add(part.value.replace(/\s/g, ""));
      } catch {
        // An unknown currency: the signs above.
      }
      reading = { comma: sign === ",", marks: [...marks].filter(Boolean).sort((a, b) => b.length - a.length) };
    }
    const { comma, marks } = reading;
    let s = input.replace(/\s/g, "");
    const minus = s.startsWith("-");
    for (const mark of marks) {
      if (s.startsWith(mark)) s = s.slice(mark.length);
      if (s.endsWith(mark)) s = s.slice(0, -mark.length);
    }
    if (s === "" && !minus) return null;
    if (minus || s.startsWith("-")) return NaN;
    if ((comma ? /^\d{1,3}(\.\d{3})+(,\d*)?$/ : /^\d{1,3}(,\d{3})+(\.\d*)?$/).test(s)) s = s.split(comma ? "." : ",").join("");
    else if (!comma && s.includes(",")) return NaN;
    const m = /^(\d*)(?:[.,](\d*))?$/.exec(s);
    if (!m || (m[1] === "" && !m[2])) return NaN;
    const frac = m[2] || "";
    if (frac.replace(/0+$/, "").length > decimals) return NaN;
    const whole = m[1].replace(/^0+(?=\d)/, "") || "0";
    if (whole.length > 10) return NaN;
    return Number(whole) * 10 ** decimals + Number(frac.slice(0, decimals).padEnd(decimals, "0") || "0");
  }

  /** The extra gift on top of tickets: 0 when empty, null when it is not an amount (donate-schema.ts extraGiftCents). */
  function extraOf(/** @type {string} */ value) {
    if (!value.trim()) return 0;
    const v = parseMinor(value);
    return v !== null && v >= 0 ? v : null;
  }

  /** The fee that covers the card processing of a gift (lib/money.ts coverFeeCents), in integers. */
  function coverFee(/** @type {number} */ gift) {
    const { PCT_BPS, FIXED_CENTS } = data?.fee || { PCT_BPS: 290, FIXED_CENTS: 30 };
    return Math.ceil(((gift + FIXED_CENTS) * 10000) / (10000 - PCT_BPS)) - gift;
  }

  // ---------------------------------------------------------------------------------------------
  // The donate form.

  /** @type {HTMLFormElement | null} */
  const form = document.querySelector("form[data-donate-form]");
  const prefix = form ? form.id.replace(/-form$/, "") : "";
  // The server gives the counter the same class as <strong> and <num> (styles.num): the class for
  // a live element that shows no such tag yet.
  const counterEl = form && one("[data-live=counter]", form);
  if (counterEl) anyTagClass = counterEl.className.replace(counterEl.dataset.nearClass || "\0", "").trim();

  /** The error key of a field's name: the amount's radios and text, the tiers' quantities, nested names. */
  function keyOf(/** @type {string} */ name) {
    if (name === "amount" || name === "amount.custom") return "amount";
    if (/^ticketOrder\.[^.]+\.quantity$/.test(name)) return "tickets";
    return name.replace(/\./g, "-");
  }

  /** A field was edited: its error goes (until the server's next answer); the others stay. */
  function clearError(/** @type {string} */ key) {
    if (!form) return;
    const id = `${prefix}-${key}-error`;
    document.getElementById(id)?.remove();
    for (const e of all("[aria-describedby]", form)) {
      const ids = (e.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
      if (!ids.includes(id)) continue;
      attr(e, "aria-describedby", ids.filter((x) => x !== id).join(" ") || null);
      e.removeAttribute("aria-invalid");
    }
  }

  /** The ticket tiers, each with its quantity and how many more it may take. */
  function tierState() {
    if (!form) return { tiers: [], total: 0 };
    const totalEl = one("[data-live=orderTotal]", form);
    const maxTotal = totalEl?.dataset.max ? Number(totalEl.dataset.max) : Infinity;
    const tiers = all("fieldset[data-tier]", form).map((set) => {
      const input = inputs('input[name$=".quantity"]', set)[0];
      const quantity = input ? Number(input.value.replace(/\D/g, "") || "0") : 0;
      return { set, input, quantity, price: Number(set.dataset.price) || 0, left: Number(set.dataset.left) || 0 };
    });
    const total = tiers.reduce((n, t) => n + t.quantity, 0);
    return { tiers: tiers.map((t) => ({ ...t, max: Math.max(0, Math.min(t.left, maxTotal - (total - t.quantity))) })), total };
  }

  const ticketCount = (/** @type {string} */ value) => (/^\d{1,3}$/.test(value) ? Number(value) : NaN);

  /** Everything the form shows that follows its values, recomputed from the fields as they are. */
  function update() {
    if (!form) return;
    const c = data?.campaign;
    const isEvent = c?.type === "EVENT";

    // The amount: a ticked radio, or the custom amount when none is.
    const radios = inputs('input[name="amount"]', form);
    const checked = radios.find((r) => r.checked);
    const custom = inputs('input[name="amount.custom"]', form)[0];
    const wrap = /** @type {HTMLElement | null | undefined} */ (custom?.closest("[data-active-class]"));
    if (wrap?.dataset.activeClass) wrap.classList.toggle(wrap.dataset.activeClass, !checked);

    /** @type {number | null} */
    let amount = null;
    let tickets = NaN;

    // One kind of ticket.
    const ticketInput = inputs('input[name="tickets"]', form)[0];
    if (ticketInput) {
      tickets = ticketCount(ticketInput.value);
      const max = Number(ticketInput.dataset.max) || Infinity;
      for (const b of all(`[data-step][aria-controls="${ticketInput.id}"]`, form)) {
        flag(b, "aria-disabled", b.dataset.step === "-1" ? !(tickets > 1) : Number.isInteger(tickets) && tickets >= max);
      }
      if (Number.isInteger(tickets) && tickets >= 1) amount = tickets * (c?.ticketPriceCents ?? 0);
    }

    // Ticket tiers, their guests' rows, and an extra gift.
    const { tiers, total } = tierState();
    if (tiers.length) {
      for (const t of tiers) {
        for (const b of all("[data-step]", t.set)) flag(b, "aria-disabled", b.dataset.step === "-1" ? t.quantity < 1 : t.quantity >= t.max);
        for (const row of all("[data-attendee]", t.set)) row.hidden = Number(row.dataset.attendee) >= t.quantity;
      }
      const hint = one("[data-live=attendeesHint]", form);
      if (hint) hint.hidden = total === 0;
      const extraInput = inputs('input[name="extraGift"]', form)[0];
      const extra = extraInput ? extraOf(extraInput.value) : 0;
      if (extraInput) flag(extraInput, "aria-invalid", extra === null);
      tickets = total;
      // As the server counts it: an extra gift that is not an amount adds nothing until it is one.
      amount = total >= 1 ? tiers.reduce((n, t) => n + t.quantity * t.price, 0) + (extra ?? 0) : null;
    }

    if (!isEvent && !ticketInput && !tiers.length) {
      if (checked) amount = Number(checked.value);
      else if (custom) {
        const v = parseMinor(custom.value);
        amount = v !== null && v > 0 ? v : null;
      }
    }

    // How often, and the hint the chosen radio is described by.
    const interval = inputs('input[name="recurringInterval"]:checked', form)[0]?.value || "ONCE";
    put(one("[data-live=frequencyHint]", form), "form.frequencyHint", { interval });
    const frequencyHint = `${prefix}-frequency-hint`;
    if (document.getElementById(frequencyHint)) {
      for (const r of inputs('input[name="recurringInterval"]', form)) {
        const ids = (r.getAttribute("aria-describedby") || "").split(/\s+/).filter((x) => x && x !== frequencyHint);
        if (interval !== "ONCE") ids.unshift(frequencyHint);
        attr(r, "aria-describedby", ids.join(" ") || null);
      }
    }

    // Sections shown by a checkbox (a dedication, Gift Aid's address).
    for (const box of inputs('input[type="checkbox"][aria-controls]', form)) {
      const section = document.getElementById(box.getAttribute("aria-controls") || "");
      if (section) section.hidden = !box.checked;
      attr(box, "aria-expanded", String(box.checked));
    }

    // The message: its counter, and where it will be shown.
    const note = /** @type {HTMLTextAreaElement | null} */ (form.querySelector('textarea[name="message"]'));
    if (note) {
      const counter = one("[data-live=counter]", form);
      const max = note.maxLength > 0 ? note.maxLength : 1000;
      put(counter, "form.counter", { count: note.value.length, max });
      if (counter?.dataset.nearClass) counter.classList.toggle(counter.dataset.nearClass, note.value.length >= max - 50);
      const anonymous = inputs('input[name="anonymous"]', form)[0];
      const shown = c?.showDonorRoll && !anonymous?.checked;
      put(one("[data-live=messageHint]", form), shown ? "form.messageShown" : "form.messageShared", { org: data?.org });
    }

    if (!data || !c) return;
    if (ticketInput) put(one("[data-live=ticketsTotal]", form), amount !== null ? "form.ticketsTotal" : null, { count: tickets, amount: money(amount ?? 0) });
    if (tiers.length) put(one("[data-live=orderTotal]", form), amount !== null ? "form.orderTotal" : null, { amount: money(amount ?? 0) });

    // The card fee, offered on top of the gift.
    const fee = amount !== null ? coverFee(amount) : null;
    const cover = inputs('input[name="coverFees"]', form)[0];
    if (cover) {
      put(cover.labels?.[0], fee !== null ? "form.coverFees" : "form.coverFeesNoAmount", { fee: money(fee ?? 0) });
      put(
        document.getElementById(`${cover.id}-hint`),
        amount !== null ? "form.coverFeesHint" : "form.coverFeesHintNoAmount",
        { org: data.org, amount: money(amount ?? 0) },
      );
    }

    // What the donor is about to give, and what a sponsor adds.
    const totalCents = amount !== null ? amount + (cover?.checked && fee !== null ? fee : 0) : null;
    put(
      one("[data-live=summary]", form),
      totalCents === null ? (isEvent ? "form.chooseTickets" : "form.chooseAmount") : isEvent ? "form.youPay" : "form.youGive",
      { amount: money(totalCents ?? 0), count: tickets, interval },
    );
    const match = c.matchingEnabled && amount !== null ? Math.floor((amount * c.matchingRatioPct) / 100) : null;
    put(
      one("[data-live=match]", form),
      match !== null && match > 0 ? (c.matchingOrgName ? "form.matchedBy" : "form.matched") : "form.matchedGeneric",
      { amount: money(match ?? 0), by: c.matchingOrgName },
    );
  }

  /** A field edited by the donor: keep the amount's choice and the quantities consistent, then update. */
  function onEdit(/** @type {Event} */ e) {
    const t = /** @type {HTMLInputElement} */ (e.target);
    if (!form || !t || !t.name) return;
    const name = t.name;
    const custom = inputs('input[name="amount.custom"]', form)[0];
    if (name === "amount.custom") {
      if (t.value.length > 20) t.value = t.value.slice(0, 20);
      // Typing picks the custom amount; merely tabbing through keeps the chosen button.
      if (t.value.trim() !== "") for (const r of inputs('input[name="amount"]', form)) r.checked = false;
    } else if (name === "amount" && t.checked && custom) {
      custom.value = "";
    } else if (name === "tickets") {
      const digits = t.value.replace(/\D/g, "").slice(0, 3);
      if (digits !== t.value) t.value = digits;
    } else if (/^ticketOrder\.[^.]+\.quantity$/.test(name)) {
      const tier = tierState().tiers.find((x) => x.input === t);
      if (tier) {
        const v = String(Math.min(Number(t.value.replace(/\D/g, "").slice(0, 3) || "0"), tier.max));
        if (v !== t.value) t.value = v;
      }
    }
    clearError(keyOf(name));
    update();
  }

  /** A − or + button beside a quantity. */
  function onStep(/** @type {MouseEvent} */ e) {
    const b = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest?.("[data-step]"));
    if (!form || !b || b.getAttribute("aria-disabled") === "true") return;
    const input = /** @type {HTMLInputElement | null} */ (document.getElementById(b.getAttribute("aria-controls") || ""));
    if (!input) return;
    const up = b.dataset.step === "1";
    if (input.name === "tickets") {
      const n = ticketCount(input.value);
      const max = Number(input.dataset.max) || Infinity;
      const whole = Number.isInteger(n);
      if (up && !(whole && n >= max)) input.value = String(Math.min(max, (whole ? n : 0) + 1));
      else if (!up && n > 1) input.value = String(Math.max(1, (whole ? n : 2) - 1));
      else return;
    } else {
      const tier = tierState().tiers.find((x) => x.input === input);
      if (!tier) return;
      if (up && tier.quantity < tier.max) input.value = String(tier.quantity + 1);
      else if (!up && tier.quantity > 0) input.value = String(tier.quantity - 1);
      else return;
    }
    clearError("tickets");
    update();
  }

  if (form) {
    // One attempt a tab, as the embed's form keeps it (components/donate/payment-attempt.ts, under
    // the same key, which the thank-you page clears once the gift is paid): the server derives each
    // post's Idempotency-Key from it and the gift, so the same gift sent again after coming back,
    // even to a page opened anew, is the donation already made. A page opened anew brings a fresh
    // attempt, which gives way to the tab's; the server's answer to a post brings the one to keep.
    const attempt = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="attempt"]'));
    const attemptKey = `goodfund:donate-attempt:${data?.campaign.id || ""}`;
    if (attempt && data) {
      let kept = null;
      try {
        kept = JSON.parse(storage()?.getItem(attemptKey) || "null")?.seed ?? null;
      } catch {
        kept = null;
      }
      if (attempt.hasAttribute("data-fresh-attempt") && typeof kept === "string" && /^[0-9a-f]{32}$/.test(kept)) attempt.value = kept;
      else {
        try {
          storage()?.setItem(attemptKey, JSON.stringify({ seed: attempt.value }));
        } catch {
          // Quota or privacy mode: the page's own attempt still covers double clicks.
        }
      }
    }

    form.addEventListener("input", onEdit);
    form.addEventListener("change", onEdit);
    form.addEventListener("click", onStep);
    update();

    // Where the server's answer wants the focus: the monthly offer, or the first field with a problem.
    if (form.dataset.focus === "upsell") document.getElementById(`${prefix}-upsell`)?.focus();
    else if (form.dataset.focus === "problem") {
      // A radio group's checked radio, or a focusable box (the captcha, the tiers' heading), that
      // an error describes or that has one under its own id.
      const erred = (/** @type {HTMLElement} */ e) =>
        /-error(\s|$)/.test(e.getAttribute("aria-describedby") || "") || Boolean(e.id && document.getElementById(`${e.id}-error`));
      all('[aria-invalid="true"], input[name="amount"]:checked, input[name="recurringInterval"]:checked, [tabindex="-1"]', form)
        .find((e) => e.getAttribute("aria-invalid") === "true" || erred(e))
        ?.focus();
    }

    // One post per click: a second submit while the first is on its way is dropped, and the
    // button says the gift is being saved (aria-disabled keeps its focus).
    let sending = false;
    /** @type {Node[] | null} */
    let label = null;
    const button = /** @type {HTMLButtonElement | null} */ (form.querySelector("button[type=submit][data-saving]"));
    form.addEventListener("submit", (e) => {
      if (sending) {
        e.preventDefault();
        return;
      }
      sending = true;
      if (!button) return;
      label = Array.from(button.childNodes, (n) => n.cloneNode(true));
      button.setAttribute("aria-disabled", "true");
      const spinner = document.createElement("span");
      spinner.className = button.dataset.spinnerClass || "";
      spinner.setAttribute("aria-hidden", "true");
      button.replaceChildren(spinner, ` ${button.dataset.saving || ""}`);
    });
    // Back to a page kept in the back/forward cache: the post is over, the form is usable again.
    window.addEventListener("pageshow", (e) => {
      if (!e.persisted) return;
      sending = false;
      if (button && label) button.replaceChildren(...label);
      button?.removeAttribute("aria-disabled");
      label = null;
      update();
    });
  }

  // Cloudflare Turnstile, where the server asks for it: its token goes in the hidden field. A
  // failed load is left to the server, which answers the missing token.
  const captcha = one("[data-turnstile]");
  const tokenInput = captcha ? inputs('input[type="hidden"][name="captchaToken"]', captcha)[0] : undefined;
  if (captcha && tokenInput) {
    const script = document.createElement("script");
    script.src = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";
    script.async = true;
    script.onload = () => {
      const api = /** @type {any} */ (window).turnstile;
      if (!api) return;
      const clear = () => {
        tokenInput.value = "";
      };
      try {
        // The widget's own box (an empty div the server renders for it), else the field itself.
        api.render(captcha.querySelector(":scope > div:empty") || captcha, {
          sitekey: captcha.dataset.turnstile,
          action: "donate",
          callback: (/** @type {string} */ token) => {
            tokenInput.value = token;
            clearError("captchaToken");
          },
          "expired-callback": clear,
          "error-callback": clear,
        });
      } catch {
        // A widget that cannot render: the server says the token is missing.
      }
    };
    document.head.appendChild(script);
  }

  // ---------------------------------------------------------------------------------------------
  // "You gave $50 a moment ago": a gift this tab completed in the last 30 minutes
  // (components/donate/recent-gift.ts), so the donor does not give twice by mistake.

  const notice = one("[data-gift-notice]");
  const giftKey = `goodfund:gift:${notice?.dataset.giftNotice || ""}`;
  function storage() {
    try {
      return window.sessionStorage;
    } catch {
      return null; // Storage disabled: the notice is a nicety.
    }
  }

  function showNotice() {
    if (!notice) return;
    /** @type {{ amountCents: number, currency: string, tickets: number | null, at: number } | null} */
    let gift = null;
    try {
      const g = JSON.parse(storage()?.getItem(giftKey) || "null");
      const now = Date.now();
      if (g && typeof g.at === "number" && typeof g.amountCents === "number" && typeof g.currency === "string" && typeof g.donationId === "string") {
        if (!(now - g.at > 30 * 60000 || g.at > now + 60000)) gift = { ...g, tickets: g.tickets ?? null };
      }
    } catch {
      gift = null;
    }
    if (!gift || !data) {
      notice.replaceChildren();
      return;
    }
    /** @type {Record<string, string>} */
    let cls = {};
    try {
      cls = JSON.parse(notice.dataset.classes || "{}");
    } catch {
      cls = {};
    }
    const make = (/** @type {string} */ tag, className = "") => {
      const e = document.createElement(tag);
      if (className) e.className = className;
      return e;
    };
    const minutes = Math.max(0, Math.floor((Date.now() - gift.at) / 60000));
    const box = make("div", cls.notice);
    const icon = make("span", cls.icon);
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    for (const [k, v] of Object.entries({ "aria-hidden": "true", viewBox: "0 0 24 24", width: "18", height: "18", style: "flex:none" })) svg.setAttribute(k, v);
    const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", "M12 20s-7.5-4.6-7.5-10.2A4.3 4.3 0 0 1 12 7.2a4.3 4.3 0 0 1 7.5 2.6C19.5 15.4 12 20 12 20z");
    path.setAttribute("fill", "currentColor");
    svg.append(path);
    icon.append(svg);
    const p = make("p", cls.text);
    const strong = make("strong");
    strong.textContent = gift.tickets
      ? text("giftNotice.got", { count: gift.tickets, minutes })
      : text("giftNotice.gave", { amount: money(gift.amountCents, gift.currency, true), minutes });
    p.append(strong, ` ${text("giftNotice.thanks")}`);
    const again = /** @type {HTMLButtonElement} */ (make("button", cls.again));
    again.type = "button";
    again.textContent = text("giftNotice.again", { tickets: gift.tickets ? "true" : "false" });
    again.addEventListener("click", () => {
      try {
        storage()?.removeItem(giftKey);
      } catch {
        // Nothing to forget.
      }
      notice.replaceChildren();
      const target = form?.querySelector("input:checked") || form?.querySelector("input:not([type=hidden]), button");
      /** @type {HTMLElement | null | undefined} */ (target)?.focus();
    });
    box.append(icon, p, again);
    notice.replaceChildren(box);
  }
  showNotice();
  window.addEventListener("pageshow", (e) => e.persisted && showNotice());

  // ---------------------------------------------------------------------------------------------
  // Fresh figures. A page shown again from history (the back/forward cache, or Back and Forward
  // answered from the HTTP cache) shows the totals of its first render: the page is fetched
  // again and its `data-fresh` parts replaced, the form (and what the donor typed) kept.

  let refreshing = false;
  async function refresh() {
    if (refreshing) return;
    refreshing = true;
    try {
      const res = await fetch(location.href, { cache: "no-store", credentials: "same-origin", headers: { accept: "text/html" } });
      if (!res.ok) return;
      const doc = new DOMParser().parseFromString(await res.text(), "text/html");
      // Part by part, by ID: an answer that is not this page has none of them and changes nothing.
      for (const old of all("[data-fresh][id]")) {
        const fresh = doc.getElementById(old.id);
        if (fresh && !(form && old.contains(form))) old.replaceWith(document.importNode(fresh, true));
      }
    } catch {
      // Offline or refused: the figures stay as they were.
    } finally {
      refreshing = false;
    }
  }

  window.addEventListener("pageshow", (e) => e.persisted && void refresh());
  const [nav] = /** @type {PerformanceNavigationTiming[]} */ (performance.getEntriesByType?.("navigation") || []);
  if (nav?.type === "back_forward") {
    // After the load (and its own listeners): until then Chromium answers a document loaded by
    // Back or Forward from its HTTP cache, this request included.
    const later = () => setTimeout(() => void refresh());
    if (document.readyState === "complete") later();
    else window.addEventListener("load", later, { once: true });
  }

  // ---------------------------------------------------------------------------------------------
  // Share: copy the link. Listened for on the document, as the share panel is among the parts
  // the fresh figures replace.

  /** @type {WeakMap<Element, ReturnType<typeof setTimeout>>} */
  const copyTimers = new WeakMap();
  document.addEventListener("click", async (e) => {
    const b = /** @type {Element} */ (e.target).closest?.("[data-share-url] button[type=button]");
    const box = /** @type {HTMLElement | null | undefined} */ (b?.closest("[data-share-url]"));
    if (!b || !box || box.querySelector("button[type=button]") !== b) return;
    const url = box.dataset.shareUrl || location.href;
    let ok = false;
    try {
      await navigator.clipboard.writeText(url);
      ok = true;
    } catch {
      // Older browsers or an insecure origin: select-and-copy through a temporary field.
      const field = document.createElement("textarea");
      field.value = url;
      field.setAttribute("readonly", "");
      field.style.position = "fixed";
      field.style.opacity = "0";
      document.body.appendChild(field);
      field.select();
      try {
        ok = document.execCommand("copy");
      } catch {
        ok = false;
      }
      field.remove();
    }
    const status = box.querySelector("[role=status]");
    if (!status) return;
    status.textContent = (ok ? box.dataset.copied : box.dataset.copyThis) || "";
    clearTimeout(copyTimers.get(box));
    if (ok) copyTimers.set(box, setTimeout(() => (status.textContent = ""), 4000));
  });

  // ---------------------------------------------------------------------------------------------
  // Start a fundraiser (or a team) on a peer-to-peer campaign, as components/donate/start-fundraiser.tsx.

  for (const f of /** @type {HTMLFormElement[]} */ (all("form[data-fundraise]"))) {
    const mode = () => inputs('input[name="mode"]:checked', f)[0]?.value || "solo";
    const showMode = () => {
      for (const label of all("label[data-mode]", f)) {
        label.hidden = label.dataset.mode !== mode();
        for (const field of /** @type {(HTMLInputElement | HTMLSelectElement)[]} */ (all("input, select", label))) field.disabled = label.hidden;
      }
    };
    showMode();
    f.addEventListener("change", (e) => {
      if (/** @type {HTMLInputElement} */ (e.target).name === "mode") showMode();
    });
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      const submit = /** @type {HTMLButtonElement | null} */ (f.querySelector("button[type=submit]"));
      const alert = one("p[role=alert]", f);
      const fields = new FormData(f);
      const read = (/** @type {string} */ k) => String(fields.get(k) ?? "").trim();
      const goal = Number(read("goal"));
      const chosen = mode();
      const body = {
        email: read("email"),
        firstName: read("firstName"),
        lastName: read("lastName"),
        locale: f.dataset.locale,
        ...(read("title") ? { title: read("title") } : {}),
        ...(goal > 0 ? { goalAmountCents: Math.round(goal * 100) } : {}),
        ...(chosen === "start" ? { team: { name: read("teamName") } } : {}),
        ...(chosen === "join" ? { teamId: read("teamId") } : {}),
      };
      if (submit) submit.disabled = true;
      if (alert) {
        alert.hidden = true;
        alert.textContent = "";
      }
      let error = f.dataset.failed || "";
      try {
        const res = await fetch(f.dataset.fundraise || "", {
          method: "POST",
          headers: { "content-type": "application/json" },
          credentials: "same-origin",
          body: JSON.stringify(body),
        });
        if (res.status === 202) {
          const sent = document.createElement("p");
          sent.setAttribute("role", "status");
          if (f.dataset.sentClass) sent.className = f.dataset.sentClass;
          sent.textContent = f.dataset.sent || "";
          f.replaceWith(sent);
          return;
        }
        /** @type {{ error?: string, details?: { fieldErrors?: Record<string, string[]> } } | null} */
        const answer = await res.json().catch(() => null);
        const problems = answer?.details?.fieldErrors ? Object.entries(answer.details.fieldErrors).map(([k, v]) => `${k}: ${v[0]}`) : [];
        error = problems.length ? problems.join("; ") : (answer?.error ?? error);
      } catch {
        // Unreachable: the generic failure.
      }
      if (submit) submit.disabled = false;
      if (alert) {
        alert.textContent = error;
        alert.hidden = false;
      }
    });
  }
})();
