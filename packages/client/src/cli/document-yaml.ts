// A configuration document as YAML, each limit on one line (`{ name: rpm, by: tenant, ... }`),
// the way docs/configuration.md writes them; the server's export uses it too (@sluice/client/text).
import { Document, isPair, isScalar, isSeq, visit } from "yaml";

export function documentYaml(document: unknown): string {
  const yaml = new Document(document);
  visit(yaml, {
    Map(_key, node, path) {
      const list = path.at(-1);
      const field = path.at(-2);
      if (isSeq(list) && isPair(field) && isScalar(field.key) && field.key.value === "limits")
        node.flow = true;
    },
  });
  return yaml.toString({ lineWidth: 0, flowCollectionPadding: true });
}
