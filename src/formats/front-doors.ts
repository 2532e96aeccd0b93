// Every front door the gateway serves, each described once (formats/shared/front-door.ts).
import { chatDoor } from './chat-completions/door.js';
import { geminiDoor } from './gemini/door.js';
import { messagesDoor } from './messages/door.js';
import { responsesDoor } from './responses/door.js';
import type { FrontDoor } from './shared/front-door.js';

export const FRONT_DOORS: readonly FrontDoor<never>[] = [chatDoor, messagesDoor, responsesDoor, geminiDoor];
