import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

// zod with `.openapi()`. Only schemas created after this runs get the method (zod 4 sets
// methods per instance), so schemas of other modules are given names with `.meta({ id })`.
extendZodWithOpenApi(z);

export { z };
