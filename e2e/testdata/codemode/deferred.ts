import { Type } from "typebox";
export default function (pi: any) {
  pi.registerTool({ name: "weather_lookup", label: "Weather", description: "Look up the weather forecast for a city.", parameters: Type.Object({ city: Type.String({description: "City name"}) }), exposure: "deferred",
    async execute(id: string, params: any) { return { content: [{ type: "text", text: "sunny in " + params.city }], details: {} }; } });
  pi.registerTool({ name: "cm_tool", label: "CM", description: "Codemode only tool that greets.", parameters: Type.Object({ who: Type.String() }), exposure: "codemode",
    async execute(id: string, params: any) { return { content: [{ type: "text", text: "hello " + params.who }], details: {} }; } });
}
