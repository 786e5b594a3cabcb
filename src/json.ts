// JSON as the service handles it: documents parsed from the read model, releases, import records.

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

/** A JSON object whose members are not looked into by type: a parsed document, a release. */
export type JsonObject = Record<string, unknown>
