// Errors of the subnet domain. They are BadInputError, so the CLI and the runner print the message
// without a stack trace. `what` names the flag, variable or argument the bad value came from.
import { BadInputError } from '../errors.js';

export class SdnInputError extends BadInputError {
  constructor(message: string) {
    super(message);
    this.name = 'SdnInputError';
  }
}

/** No free subnet is left. The message gives the network, the size and how many are taken. */
export class SubnetsExhaustedError extends BadInputError {
  constructor(message: string) {
    super(message);
    this.name = 'SubnetsExhaustedError';
  }
}
