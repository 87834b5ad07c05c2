// The override form's "For" choice meaning the whole tenant (no key); isomorphic.
export const EVERY_CHECK = "(every check)";
