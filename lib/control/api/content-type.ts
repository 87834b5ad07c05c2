// Media types of config documents and answers. Pure, so unit tests cover every spelling.

export type BodyFormat = "json" | "yaml";

const YAML_TYPES = new Set(["application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"]);

/** The format a Content-Type names ("application/json; charset=utf-8" -> json), or null. */
export function bodyFormat(contentType: string): BodyFormat | null {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type)) return "json";
  if (YAML_TYPES.has(type)) return "yaml";
  return null;
}

/**
 * Whether the client asked for YAML: docs/api.md says YAML when Accept names application/yaml,
 * else JSON. Other YAML spellings are honoured too; a q=0 entry is a refusal, not a wish.
 */
export function wantsYaml(accept: string | null): boolean {
  if (!accept) return false;
  return accept.split(",").some((entry) => {
    const [type = "", ...params] = entry.split(";").map((part) => part.trim().toLowerCase());
    const refused = params.some((p) => /^q=0(\.0*)?$/.test(p));
    return YAML_TYPES.has(type) && !refused;
  });
}
