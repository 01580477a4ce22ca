// The App on a fake runner, for the UI tests: its last frame, waiting for text, typing keys.
import { render } from 'ink-testing-library';
import { App } from '../app.js';
import { MODES } from '../modes/index.js';
import { FakeRunner, until } from './fake-runner.js';

export interface OpenAppOptions {
  readonly exportDir: string;
  readonly columns?: number;
  readonly rows?: number;
}

export interface OpenedApp {
  readonly runner: FakeRunner;
  readonly ui: ReturnType<typeof render>;
  readonly frame: () => string;
  readonly waitFor: (re: RegExp) => Promise<void>;
  readonly press: (keys: string) => Promise<void>;
}

export function openApp(source: string, file: string, options: OpenAppOptions): OpenedApp {
  const runner = new FakeRunner();
  const ui = render(<App file={file} source={source} modes={MODES} runner={runner} color={false} columns={options.columns ?? 80} rows={options.rows ?? 24} exportDir={options.exportDir} />);
  const frame = () => ui.lastFrame() ?? '';
  const waitFor = (re: RegExp) => until(() => re.test(frame()), frame);
  const press = async (keys: string) => {
    ui.stdin.write(keys);
    // ink handles a write on its next turn: the next key must find that render's state.
    await new Promise((r) => setTimeout(r, 30));
  };
  return { runner, ui, frame, waitFor, press };
}
