// The clients of the compatibility matrix, in the order of its rows.
import { claudeCode } from './claude-code.js';
import { cline } from './cline.js';
import { codex } from './codex.js';
import type { ClientDriver } from './driver.js';
import { geminiCli } from './gemini-cli.js';
import { kilo } from './kilo.js';
import { openCode } from './opencode.js';
import { qwenCode } from './qwen-code.js';

export const CLIENTS: ClientDriver[] = [claudeCode, codex, geminiCli, openCode, qwenCode, kilo, cline];
