/**
 * `/embed.js` (app/embed.js/route.ts), the script any site adds to show a donate form:
 *
 *   <a href="{donate page}" data-goodfund>Donate</a>           a button opening the form in an overlay
 *   <a href="{donate page}" data-goodfund="inline">Donate</a>  the form itself, in the page
 *   <script src="{APP_URL}/embed.js" async></script>
 *
 * Plain ES2017 with no dependency and no build step, served as written. It injects no `<style>`
 * or inline script and calls no eval, so the embedding site's CSP needs only `script-src` and
 * `frame-src` for our origin. The frame loads `{donate page}/embed`; the script trusts one
 * message, `{ type: "goodfund:resize", height }` (and `goodfund:escape` for the overlay), and
 * only from a frame it made, at that frame's origin. Nothing is ever sent to the frame.
 */
export const EMBED_SCRIPT = String.raw`/*! Goodfund embed: turns <a data-goodfund> donate links into a donate form. */
(function () {
  "use strict";
  if (window.GoodfundEmbed) return;

  var RESIZE = "goodfund:resize";
  var ESCAPE = "goodfund:escape";
  var MAX_HEIGHT = 20000;
  var frames = [];

  function css(el, styles) {
    Object.keys(styles).forEach(function (k) {
      el.style[k] = styles[k];
    });
  }

  // "{base}/donate/{slug}" (a custom domain's or "/o/{org}/donate/{slug}") -> its /embed page.
  function embedUrl(href) {
    var url;
    try {
      url = new URL(href, document.baseURI);
    } catch (e) {
      return null;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    var path = url.pathname.replace(/\/+$/, "");
    if (!/\/donate\/[^/]+$/.test(path)) return null;
    url.pathname = path + "/embed";
    url.hash = "";
    return url;
  }

  function frameFor(url, title) {
    var frame = document.createElement("iframe");
    frame.src = url.href;
    frame.title = title;
    frame.setAttribute("allow", "payment; clipboard-write");
    css(frame, { display: "block", width: "100%", height: "640px", border: "0", background: "transparent" });
    var entry = { frame: frame, origin: url.origin, onEscape: null };
    frames.push(entry);
    return entry;
  }

  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || typeof data !== "object" || (data.type !== RESIZE && data.type !== ESCAPE)) return;
    for (var i = 0; i < frames.length; i++) {
      var entry = frames[i];
      if (entry.frame.contentWindow !== event.source || entry.origin !== event.origin) continue;
      if (data.type === ESCAPE) {
        if (entry.onEscape) entry.onEscape();
        return;
      }
      var height = Number(data.height);
      if (isFinite(height) && height > 0) entry.frame.style.height = Math.min(Math.ceil(height), MAX_HEIGHT) + "px";
      return;
    }
  });

  function label(link) {
    var text = (link.textContent || "").replace(/\s+/g, " ").trim();
    return text || "Donate";
  }

  function inline(link, url) {
    var box = document.createElement("div");
    box.className = "goodfund-inline";
    var entry = frameFor(url, "Donation form: " + label(link));
    entry.frame.setAttribute("loading", "lazy");
    box.appendChild(entry.frame);
    link.parentNode.replaceChild(box, link);
  }

  function overlay(link, url) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "goodfund-button " + (link.className || "");
    button.textContent = label(link);
    button.setAttribute("aria-haspopup", "dialog");
    if (!link.className) {
      css(button, {
        font: "inherit",
        fontWeight: "700",
        color: "#fff",
        background: link.getAttribute("data-goodfund-color") || "#1a7f5a",
        border: "0",
        borderRadius: "10px",
        padding: "12px 22px",
        minHeight: "48px",
        cursor: "pointer",
      });
    }
    link.parentNode.replaceChild(button, link);

    var backdrop = null;
    var entry = null;
    var closeButton = null;
    var restoreOverflow = "";

    function close() {
      if (!backdrop || backdrop.style.display === "none") return;
      backdrop.style.display = "none";
      document.documentElement.style.overflow = restoreOverflow;
      document.removeEventListener("keydown", onKey, true);
      button.focus();
    }

    function onKey(event) {
      if (event.key === "Escape" || event.key === "Esc") {
        event.preventDefault();
        close();
      }
    }

    // Focus stays in the dialog: a sentinel on each side sends it back to the other end. The
    // frame is another origin, so its keys never reach this page; leaving it lands on a sentinel.
    function sentinel(onFocus) {
      var s = document.createElement("span");
      s.tabIndex = 0;
      css(s, { position: "absolute", width: "1px", height: "1px", overflow: "hidden", outline: "none" });
      s.addEventListener("focus", onFocus);
      return s;
    }

    function build() {
      backdrop = document.createElement("div");
      backdrop.className = "goodfund-overlay";
      css(backdrop, {
        position: "fixed",
        top: "0",
        right: "0",
        bottom: "0",
        left: "0",
        zIndex: "2147483000",
        overflowY: "auto",
        background: "rgba(16, 24, 20, 0.6)",
        padding: "16px 8px",
        boxSizing: "border-box",
      });
      var dialog = document.createElement("div");
      dialog.setAttribute("role", "dialog");
      dialog.setAttribute("aria-modal", "true");
      dialog.setAttribute("aria-label", label(link));
      css(dialog, {
        position: "relative",
        maxWidth: "560px",
        margin: "0 auto",
        background: "#fff",
        borderRadius: "14px",
        boxShadow: "0 12px 40px rgba(0, 0, 0, 0.3)",
        padding: "44px 0 0",
      });
      closeButton = document.createElement("button");
      closeButton.type = "button";
      closeButton.setAttribute("aria-label", "Close");
      closeButton.textContent = "\u00d7";
      css(closeButton, {
        position: "absolute",
        top: "4px",
        right: "4px",
        width: "40px",
        height: "40px",
        font: "28px/1 sans-serif",
        color: "#14201b",
        background: "transparent",
        border: "0",
        borderRadius: "8px",
        cursor: "pointer",
      });
      closeButton.addEventListener("click", close);
      entry = frameFor(url, "Donation form: " + label(link));
      entry.onEscape = close;
      var first = sentinel(function () {
        entry.frame.focus();
      });
      var last = sentinel(function () {
        closeButton.focus();
      });
      dialog.appendChild(closeButton);
      dialog.appendChild(entry.frame);
      backdrop.appendChild(first);
      backdrop.appendChild(dialog);
      backdrop.appendChild(last);
      backdrop.addEventListener("click", function (event) {
        if (event.target === backdrop) close();
      });
      document.body.appendChild(backdrop);
    }

    button.addEventListener("click", function () {
      if (!backdrop) build();
      restoreOverflow = document.documentElement.style.overflow;
      document.documentElement.style.overflow = "hidden";
      backdrop.style.display = "block";
      document.addEventListener("keydown", onKey, true);
      closeButton.focus();
    });
  }

  function scan(root) {
    var links = (root || document).querySelectorAll("a[data-goodfund]");
    for (var i = 0; i < links.length; i++) {
      var link = links[i];
      if (link.getAttribute("data-goodfund-ready")) continue;
      var url = embedUrl(link.getAttribute("href") || "");
      if (!url) continue;
      link.setAttribute("data-goodfund-ready", "1");
      if (link.getAttribute("data-goodfund") === "inline") inline(link, url);
      else overlay(link, url);
    }
  }

  window.GoodfundEmbed = { scan: scan };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { scan(); });
  else scan();
})();
`;
