export * from "@/lib/check/published/part-types";
export { splitPublished } from "@/lib/check/published/split-published";
export { assemblePublished, withBareKeys } from "@/lib/check/published/assemble-published";
export { parsePart } from "@/lib/check/published/part-schema";
