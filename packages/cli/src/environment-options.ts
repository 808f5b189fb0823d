import { Command, type Option } from 'commander';

/** Values of an environment variable that turn a flag off rather than on. */
const OFF = new Set(['', '0', 'false', 'no', 'off']);

/**
 * A command whose every option can also come from the environment: `--max-queue` from
 * `PAPERLIST_MAX_QUEUE`, and so on (options that already name a variable, such as `--port` with
 * `PORT`, keep it; `rename` gives others a conventional name, such as `HOST`; hidden options
 * have none). A flag on the command line wins. A flag without a value is on for any value but
 * `0`, `false`, `no`, `off` and the empty string; an option taking several values takes them
 * comma-separated.
 */
export class EnvironmentCommand extends Command {
  constructor(
    name: string,
    private readonly rename: Readonly<Record<string, string>> = {},
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    super(name);
    this.hook('preAction', (_, action) => {
      if (action === this) this.splitListsFromEnvironment();
    });
  }

  override addOption(option: Option): this {
    // Commander listens for an option's variable only if it is named before the option is added.
    if (option.envVar === undefined && !option.hidden && option.long !== undefined) {
      const name = this.rename[option.long] ?? `PAPERLIST_${option.long.slice(2).toUpperCase().replace(/-/g, '_')}`;
      const isFlag = !option.required && !option.optional;
      // Commander sets a flag whatever its variable holds: leave it unset for the "off" values.
      const value = this.env[name];
      if (!(isFlag && value !== undefined && OFF.has(value.trim().toLowerCase()))) option.env(name);
    }
    return super.addOption(option);
  }

  private splitListsFromEnvironment(): void {
    for (const option of this.options) {
      const key = option.attributeName();
      if (!option.variadic || this.getOptionValueSource(key) !== 'env') continue;
      const values = this.getOptionValue(key) as string[];
      const split = values.flatMap((value) => value.split(',').map((part) => part.trim()).filter((part) => part !== ''));
      this.setOptionValueWithSource(key, split, 'env');
    }
  }
}
