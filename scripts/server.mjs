// Goodfund's HTTP server: Next.js behind a plain node:http server, so the API can see the
// socket's address. The client-IP header is always overwritten here: a value sent by a client
// never reaches the app (with TRUST_PROXY=1 the app reads X-Forwarded-For instead).
import http from "node:http";
import next from "next";

const CLIENT_IP_HEADER = "x-goodfund-client-ip";
const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOSTNAME || "0.0.0.0";
const dev = process.env.NODE_ENV === "development";

const app = next({ dev, hostname, port, dir: process.cwd() });
const handle = app.getRequestHandler();
await app.prepare();

// Node enforces headersTimeout/requestTimeout only when it checks its connections, every 30 s by
// default: a slowloris connection would live 22–30 s instead of 10.
const server = http.createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
  req.headers[CLIENT_IP_HEADER] = (req.socket.remoteAddress || "unknown").replace(/^::ffff:/, "");
  handle(req, res).catch((err) => {
    console.error(JSON.stringify({ level: "error", msg: "request failed", err: String(err) }));
    if (!res.headersSent) {
      res.statusCode = 500;
      res.setHeader("content-type", "application/json");
    }
    res.end(JSON.stringify({ error: "Internal server error", status: 500 }));
  });
});
// Slow clients: a request must deliver its headers within 10 s and its body within 30 s.
server.headersTimeout = 10_000;
server.requestTimeout = 30_000;
server.keepAliveTimeout = 5_000;

server.listen(port, hostname, () => {
  const shown = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
  console.log(`Goodfund is ready on http://${shown}:${port}`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
