// A webhook endpoint refused for a private host says how it could be allowed: to an
// operator, the "Allow private networks" choice (right below the URL in the form); to a
// tenant admin, that only an operator can set it. Against real PostgreSQL.
import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { createAlertEndpoint } from "@/lib/control/data/alerts/endpoints";
import { ConflictError } from "@/lib/control/errors/errors";
import { anyPlan, makeMember, makeTenant, system, uniqueSlug } from "./fixtures";

const slug = uniqueSlug("private-hint");
let admin: Principal;

beforeAll(async () => {
  const id = await makeTenant(slug, await anyPlan());
  admin = await makeMember(`${slug}@admin.test`, id, "admin");
});

const refusal = async (who: Principal): Promise<ConflictError> => {
  const error: unknown = await createAlertEndpoint(who, slug, {
    name: "local",
    url: "http://127.0.0.1:9/",
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConflictError);
  return error as ConflictError;
};

describe("a private webhook host", () => {
  it("tells an operator to choose Allow private networks", async () => {
    const error = await refusal(system);
    expect(error.path).toBe("url");
    expect(error.message).toBe(
      'url: a private, loopback or link-local host is not allowed unless "Allow private networks" (allowPrivate) is yes',
    );
  });

  it("tells a tenant admin that only an operator can allow it", async () => {
    const error = await refusal(admin);
    expect(error.message).toContain('only an operator can set "Allow private networks"');
  });

  it("is added when an operator allows private networks", async () => {
    const made = await createAlertEndpoint(system, slug, {
      name: "local",
      url: "http://127.0.0.1:9/",
      allowPrivate: true,
    });
    expect(made.endpoint.allowPrivate).toBe(true);
  });
});
