// GET /downloads/<file> — the official API clients as archives npm and pip install directly, so a
// customer needs nothing but this service to get them (they are not on a package registry yet).
import { clientArchive } from "@/lib/clients/client-archives";

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const archive = await clientArchive(file);
  if (!archive) return new Response("No such download\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(new Uint8Array(archive), {
    headers: {
      "Content-Type": "application/gzip",
      "Content-Disposition": `attachment; filename="${file}"`,
      "Content-Length": String(archive.length),
      "Cache-Control": "public, max-age=300",
    },
  });
}
