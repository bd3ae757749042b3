// A permission gate: bash commands that delete recursively, use sudo or
// open permissions wide are held until the user allows them through a
// select dialog; without a UI they are blocked outright.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const risky = [/\brm\s+(-rf?|--recursive)/i, /\bsudo\b/i, /\b(chmod|chown)\b.*777/i];

export default function (pi: ExtensionAPI) {
	pi.on("tool_call", async (event, ctx) => {
		if (event.toolName !== "bash") return undefined;
		const command = String(event.input.command);
		if (!risky.some((re) => re.test(command))) return undefined;
		if (!ctx.hasUI) return { block: true, reason: "Dangerous command blocked (no UI for confirmation)" };
		const choice = await ctx.ui.select(`Dangerous command:\n\n  ${command}\n\nAllow?`, ["Yes", "No"]);
		if (choice !== "Yes") return { block: true, reason: "Blocked by user" };
		return undefined;
	});
}
