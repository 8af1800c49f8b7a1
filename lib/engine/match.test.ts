import { describe, expect, it } from "bun:test";
import { EventView, fillTemplate } from "./match.ts";
import type { HookEvent } from "./schema.ts";

/** What fillTemplate did before templates were cut once: one regex replace per call. */
function reference(template: string, view: EventView): string {
  if (!template.includes("{{")) return template;
  return template.replace(/\{\{\s*(command|path|tool|text)\s*\}\}/g, (_m, key: string) => (key === "tool" ? (view.event.tool?.name ?? view.tool) : (view.field(key) ?? "")));
}

const TEMPLATES = [
  "no placeholder",
  "{{command}}",
  "blocked: {{ command }} (tool {{tool}})",
  "{{{command}}}",
  "{{{{command}}}}",
  "{{\n command\t}} and {{\u00a0path\u2003}}",
  "{{unknown}} {{command",
  "{{text}}{{path}}{{tool}}{{command}}",
  "{{ Command }} {{COMMAND}}",
  "",
  "{{",
  "}}{{command}}{{",
];

const EVENTS: HookEvent[] = [
  { hook: "tool_call", session: { id: "s", cwd: "/p" }, tool: { name: "Bash", input: { command: "rm -rf $& ~ $1 $$" } } },
  { hook: "tool_call", session: { id: "s", cwd: "/p" }, tool: { name: "write", input: { path: "/p/a.txt", content: "x {{command}}" } } },
];

describe("fillTemplate", () => {
  it("should fill every template as the regex replace does", () => {
    for (const event of EVENTS) {
      for (const t of TEMPLATES) {
        // Twice: the second call reads the template's cached cut.
        expect([t, fillTemplate(t, new EventView(event))]).toEqual([t, reference(t, new EventView(event))]);
        expect([t, fillTemplate(t, new EventView(event))]).toEqual([t, reference(t, new EventView(event))]);
      }
    }
  });

  it("should put a value's $ signs in literally", () => {
    expect(fillTemplate("ran {{command}}", new EventView(EVENTS[0] as HookEvent))).toBe("ran rm -rf $& ~ $1 $$");
  });
});
