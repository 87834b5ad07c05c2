export * from "@/lib/config/parts/part-types";
export { splitPublished } from "@/lib/config/parts/split-published";
export { assemblePublished, withBareKeys } from "@/lib/config/parts/assemble-published";
export { parsePart } from "@/lib/config/parts/part-schema";
