import { describe, expect, it } from "vitest";
import { generatePythonSdk, snakeCase, type OpenApiDocument } from "@/scripts/generate-sdk-python";

// The Python SDK's generator over a small document: what any new endpoint turns into, with no
// code of its own (the real document's output is checked for staleness in sdk.test.ts and
// exercised by the pytest suite in sdk/python).

const error = { content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
const doc: OpenApiDocument = {
  components: {
    schemas: {
      Error: { type: "object", properties: { error: { type: "string" }, status: { type: "integer" } }, required: ["error", "status"] },
      Gift: {
        type: "object",
        properties: {
          id: { type: "string" },
          amountCents: { type: "integer", description: "In cents." },
          kind: { type: "string", enum: ["ONE_TIME", "MONTHLY"] },
          note: { anyOf: [{ type: "object", properties: { text: { type: "string" } }, required: ["text"] }, { type: "null" }] },
          tags: { type: "array", items: { type: "string" } },
          extra: { type: "object", additionalProperties: {} },
        },
        required: ["id", "amountCents", "kind", "note"],
      },
      Window: {
        type: "object",
        properties: { from: { type: ["string", "null"] }, to: { $ref: "#/components/schemas/Gift" } },
        required: ["from"],
      },
      Cursor: {
        type: "object",
        properties: { limit: { type: "integer" }, nextCursor: { type: ["string", "null"] } },
        required: ["limit", "nextCursor"],
      },
    },
    parameters: {
      RequestId: { name: "X-Request-Id", in: "header", schema: { type: "string" } },
      IdempotencyKey: { name: "Idempotency-Key", in: "header", schema: { type: "string" } },
    },
  },
  paths: {
    "/api/orgs/{idOrSlug}/gifts": {
      get: {
        operationId: "listGifts",
        summary: "List gifts",
        parameters: [
          { name: "idOrSlug", in: "path", required: true, schema: { type: "string" } },
          { name: "from", in: "query", schema: { type: "string" } },
          { name: "cursor", in: "query", schema: { type: "string" } },
          { $ref: "#/components/parameters/RequestId" } as never,
        ],
        responses: {
          "200": {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: {
                    data: { type: "array", items: { $ref: "#/components/schemas/Gift" } },
                    pagination: { $ref: "#/components/schemas/Cursor" },
                  },
                  required: ["data", "pagination"],
                },
              },
            },
          },
          "400": error,
        },
      },
      post: {
        operationId: "createGift",
        summary: "Create a gift",
        description: 'Says "hi" with a \\ backslash.',
        parameters: [
          { name: "idOrSlug", in: "path", required: true, schema: { type: "string" } },
          { $ref: "#/components/parameters/IdempotencyKey" } as never,
        ],
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Gift" } } } },
        responses: { "201": { content: { "application/json": { schema: { $ref: "#/components/schemas/Gift" } } } } },
      },
    },
    "/api/gifts/{id}/receipt/{year}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      get: {
        operationId: "getGiftReceipt",
        parameters: [
          { name: "year", in: "path", required: true, schema: { type: "integer" } },
          { name: "id", in: "path", required: true, schema: { type: "string" } },
        ],
        responses: { "200": { content: { "application/pdf": { schema: { type: "string", format: "binary" } } } } },
      },
      delete: {
        operationId: "deleteGiftReceipt",
        deprecated: true,
        parameters: [{ name: "year", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "204": {} },
      },
    },
  },
};

describe("Python SDK generator", () => {
  const { models, operations } = generatePythonSdk(doc);

  it("writes a TypedDict per schema, inline objects named after where they sit, NotRequired for optional keys", () => {
    expect(models).toContain("class Gift(TypedDict):");
    expect(models).toContain("    # In cents.\n    amountCents: int\n");
    expect(models).toContain('    kind: Literal["ONE_TIME", "MONTHLY"]\n');
    expect(models).toContain("class GiftNote(TypedDict):\n    text: str\n");
    expect(models).toContain("    note: GiftNote | None\n");
    expect(models).toContain("    tags: NotRequired[list[str]]\n");
    expect(models).toContain("    extra: NotRequired[dict[str, Any]]\n");
    // `from` is a keyword: the functional form, its types quoted as forward references.
    expect(models).toContain(
      'Window = TypedDict(\n    "Window",\n    {\n        "from": "str | None",\n        "to": "NotRequired[Gift]",\n    },\n)',
    );
    expect(models).toContain("class ListGiftsResponse(TypedDict):\n    data: list[Gift]\n    pagination: Cursor\n");
  });

  it("writes a method per operation: path parameters in path order, snake_case keywords, headers, the body, typed answers", () => {
    expect(operations).toContain(
      "    def list_gifts(\n        self,\n        id_or_slug: str,\n        *,\n        from_: str | None = None,",
    );
    expect(operations).toContain('params={"from": from_, "cursor": cursor}');
    expect(operations).toContain('headers={"X-Request-Id": request_id}');
    expect(operations).toContain(") -> models.ListGiftsResponse:");
    expect(operations).toMatch(
      /def create_gift\(\s*self,\s*id_or_slug: str,\s*body: models\.Gift,\s*\*,\s*idempotency_key: str \| None = None,?\s*\) -> models\.Gift:/,
    );
    expect(operations).toContain('Says "hi" with a \\\\ backslash.');
    expect(operations).toContain("def get_gift_receipt(self, id: str, year: int) -> bytes:");
    expect(operations).toContain('f"/api/gifts/{_segment(id)}/receipt/{_segment(year)}"');
    // The path's shared parameter (`id`) joins the operation's own.
    expect(operations).toMatch(/def delete_gift_receipt\(self, id: str, year: int\) -> None:[\s\S]*?\n        self\.request\(/);
    expect(operations).toContain("Deprecated: it may be removed in a later version.");
    expect(operations).toContain("    async def create_gift(");
    expect(operations).toContain("answer: models.Gift = await self.request(");
  });

  it("adds an iter_ method for lists paged by cursor or page, sync and async", () => {
    expect(operations).toMatch(
      /def iter_gifts\(\s*self,\s*id_or_slug: str,\s*\*,\s*from_: str \| None = None,\s*request_id: str \| None = None,?\s*\) -> Iterator\[models\.Gift\]:/,
    );
    expect(operations).toContain(") -> AsyncIterator[models.Gift]:");
    // The list method with every filter passed on, and the position (cursor or page) the walk is at.
    expect(operations.replace(/\s+/g, "")).toContain(
      "returnpaginate(lambda**position:self.list_gifts(id_or_slug,from_=from_,request_id=request_id,**position",
    );
    expect(operations).not.toContain("iter_gift_receipt");
  });

  it("refuses a document whose operations would share a Python name", () => {
    const clash: OpenApiDocument = {
      paths: { "/a": { get: { operationId: "getThing", responses: {} } }, "/b": { get: { operationId: "get_thing", responses: {} } } },
    };
    expect(() => generatePythonSdk(clash)).toThrow(/Two methods of the Python SDK would be named get_thing/);
    expect(() => generatePythonSdk({ paths: { "/r": { get: { operationId: "request", responses: {} } } } })).toThrow(/request/);
  });

  it("snake_cases operationIds and parameter names", () => {
    expect(["listCampaigns", "idOrSlug", "X-Request-Id", "listAPIKeys", "getOpenApiDocument"].map(snakeCase)).toEqual([
      "list_campaigns",
      "id_or_slug",
      "x_request_id",
      "list_api_keys",
      "get_open_api_document",
    ]);
  });
});
