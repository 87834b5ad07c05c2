import { describe, expect, it } from "vitest";
import { ConnectionAdmission, type Refusal } from "@/lib/check/http/front/connection-admission";

// The admission policy alone, with small numbers: the bound per address, and at the cap
// the longest quiet idle connection shed for a new one, busy ones never.

interface Fake {
  name: string;
  busy: boolean;
}

function table(maxConnections: number, maxPerAddress: number) {
  const shed: string[] = [];
  const admission = new ConnectionAdmission<Fake>({
    maxConnections,
    maxPerAddress,
    isIdle: (connection) => !connection.busy,
    shed: (connection) => shed.push(connection.name),
  });
  const admit = (name: string, address: string, busy = false): Fake | Refusal =>
    admission.admit(address, () => ({ name, busy }));
  const names = (): string[] => [...admission].map((connection) => connection.name);
  return { admission, admit, shed, names };
}

const admitted = (result: Fake | Refusal): Fake => {
  if (typeof result === "string") throw new Error(`refused: ${result}`);
  return result;
};

describe("connection admission", () => {
  it("refuses a connection over its address's bound while other addresses are admitted", () => {
    const { admission, admit, shed } = table(10, 2);
    admitted(admit("a1", "10.0.0.1"));
    admitted(admit("a2", "10.0.0.1"));
    expect(admit("a3", "10.0.0.1")).toBe("address_full");
    expect(admitted(admit("b1", "10.0.0.2")).name).toBe("b1");
    expect(admission.countFrom("10.0.0.1")).toBe(2);
    expect(admission.size).toBe(3);
    expect(shed).toEqual([]);
  });

  it("frees an address's place when one of its connections is released, once", () => {
    const { admission, admit } = table(10, 2);
    const first = admitted(admit("a1", "10.0.0.1"));
    admitted(admit("a2", "10.0.0.1"));
    admission.release(first);
    admission.release(first);
    expect(admission.countFrom("10.0.0.1")).toBe(1);
    expect(admitted(admit("a3", "10.0.0.1")).name).toBe("a3");
    expect(admit("a4", "10.0.0.1")).toBe("address_full");
  });

  it("at the cap sheds the longest quiet idle connection, skipping busy ones", () => {
    const { admit, shed, names } = table(3, 10);
    admitted(admit("busy", "10.0.0.1", true));
    admitted(admit("idle-old", "10.0.0.2"));
    admitted(admit("idle-new", "10.0.0.3"));
    expect(admitted(admit("new", "10.0.0.4")).name).toBe("new");
    expect(shed).toEqual(["idle-old"]);
    expect(names()).toEqual(["busy", "idle-new", "new"]);
  });

  it("orders by noted activity: a connection active since is shed after quieter ones", () => {
    const { admission, admit, shed } = table(3, 10);
    const a = admitted(admit("a", "10.0.0.1"));
    admitted(admit("b", "10.0.0.2"));
    admitted(admit("c", "10.0.0.3"));
    admission.noteActivity(a, 120);
    // the same mark again is no new activity: "a" stays behind "b" and "c"
    admission.noteActivity(a, 120);
    admitted(admit("d", "10.0.0.4"));
    admitted(admit("e", "10.0.0.5"));
    expect(shed).toEqual(["b", "c"]);
    admitted(admit("f", "10.0.0.6"));
    expect(shed).toEqual(["b", "c", "a"]);
  });

  it("refuses a new connection at the cap when none is idle, and frees the shed one's address", () => {
    const { admission, admit, shed } = table(2, 1);
    admitted(admit("a", "10.0.0.1", true));
    admitted(admit("b", "10.0.0.2", true));
    expect(admit("c", "10.0.0.3")).toBe("full");
    expect(admission.size).toBe(2);
    expect(shed).toEqual([]);

    const idle = table(2, 1);
    admitted(idle.admit("a", "10.0.0.1"));
    admitted(idle.admit("b", "10.0.0.2", true));
    admitted(idle.admit("c", "10.0.0.3"));
    expect(idle.shed).toEqual(["a"]);
    expect(idle.admission.countFrom("10.0.0.1")).toBe(0);
    expect(admitted(idle.admit("a2", "10.0.0.1")).name).toBe("a2");
  });
});
