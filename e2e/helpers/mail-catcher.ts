// Started by playwright.config.ts beside the server: a real SMTP server on loopback that keeps what
// the service sends, and a small HTTP view of it (GET /messages?to=…) for the specs to read.
import http from "node:http";
import { startSmtpServer } from "../../tests/support/smtp-server";
import { e2ePorts } from "./e2e-env";

const ports = e2ePorts();
const smtp = await startSmtpServer(ports.smtp);

const server = http.createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://localhost");
  if (url.pathname === "/healthz") {
    response.end("ok");
    return;
  }
  if (url.pathname === "/messages") {
    const to = url.searchParams.get("to")?.toLowerCase();
    const messages = smtp.messages().filter((m) => !to || m.to.includes(to));
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(messages));
    return;
  }
  response.statusCode = 404;
  response.end();
});
server.listen(ports.mail, "127.0.0.1", () => console.log(`mail catcher: SMTP on ${smtp.port}, messages on ${ports.mail}`));

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close();
    void smtp.close().then(() => process.exit(0));
  });
}
