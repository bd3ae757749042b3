package compaction

// The instructions below are our own words. What is fixed is their
// structure: the section headings the model is asked to produce (clients
// and later compactions read summaries with them), the XML-like wrappers
// around the conversation and the previous summary, and the "Additional
// focus:" suffix for custom instructions.

// SystemPrompt is the system prompt of every summary request.
const SystemPrompt = `You summarize conversations between a user and an AI coding assistant. Read the conversation you are given and write a structured summary in exactly the format requested.

Never continue the conversation and never answer questions found in it. Your whole reply is the structured summary.`

const summaryFormat = `## Goal
[What the user wants to achieve; list several goals if the session covers several tasks.]

## Constraints & Preferences
- [Requirements, constraints or preferences the user stated]
- [Or "(none)" when there were none]

## Progress
### Done
- [x] [Finished tasks and changes]

### In Progress
- [ ] [Work under way]

### Blocked
- [Anything stopping progress]

## Key Decisions
- **[Decision]**: [Why, briefly]

## Next Steps
1. [What to do next, in order]

## Critical Context
- [Data, examples or references needed to carry on]
- [Or "(none)" when nothing applies]

Be brief in every section. Keep file paths, function names and error messages exactly as written.`

// initialPrompt asks for a first summary.
const initialPrompt = `The conversation above is what you are summarizing. Write a structured checkpoint from which another model can pick up the work.

Reply in EXACTLY this format:

` + summaryFormat

// updatePrompt asks to fold new messages into a previous summary.
const updatePrompt = `The conversation above holds NEW messages. Merge them into the summary given in the <previous-summary> tags. Rules:
- KEEP everything the previous summary says
- ADD the progress, decisions and context of the new messages
- MOVE items from "In Progress" to "Done" once they are finished
- REVISE "Next Steps" to match what has been done
- KEEP file paths, function names and error messages exactly as written
- You may drop what no longer matters

Reply in EXACTLY this format:

## Goal
[Existing goals, plus new ones if the task grew]

## Constraints & Preferences
- [Existing ones, plus any new ones]

## Progress
### Done
- [x] [Earlier finished items AND newly finished ones]

### In Progress
- [ ] [Work under way, as it stands now]

### Blocked
- [Current blockers; drop resolved ones]

## Key Decisions
- **[Decision]**: [Why, briefly] (keep earlier ones, add new ones)

## Next Steps
1. [Revised to the current state]

## Critical Context
- [Important context, kept and extended]

Be brief in every section. Keep file paths, function names and error messages exactly as written.`

// turnPrefixPrompt summarises the start of a turn too long to keep whole.
const turnPrefixPrompt = `The messages above open an ongoing exchange. The messages that follow them are kept separately; do not try to reconstruct them.

Write a short checkpoint of what the user asked for and of the progress shown above. It will be placed in front of the later messages so the work can go on.

## Original Request
[What the user asked for]

## Progress So Far
- [Decisions made and work done in these messages]

## Context Needed to Continue
- [What from these messages is needed to follow the later work]

Only use what the messages above actually say. Do not guess at or recreate later messages.`

// branchPrompt summarises a branch the user navigated away from.
const branchPrompt = `Write a structured summary of this conversation branch, to be used as context when the user comes back to it.

Reply in EXACTLY this format:

## Goal
[What the user was trying to achieve on this branch]

## Constraints & Preferences
- [Requirements, constraints or preferences stated]
- [Or "(none)" when there were none]

## Progress
### Done
- [x] [Finished tasks and changes]

### In Progress
- [ ] [Work started but not finished]

### Blocked
- [Anything stopping progress]

## Key Decisions
- **[Decision]**: [Why, briefly]

## Next Steps
1. [What to do next to carry on]

Be brief in every section. Keep file paths, function names and error messages exactly as written.`

// branchPreamble starts every generated branch summary.
const branchPreamble = "The user explored another branch of the conversation before coming back here.\nWhat happened there:\n\n"

// splitTurnSeparator joins the history summary and the turn-prefix summary.
const splitTurnSeparator = "\n\n---\n\n**Turn Context (split turn):**\n\n"
