export type Paint = (text: string) => string;

export interface Colors {
  bold: Paint;
  dim: Paint;
  red: Paint;
  green: Paint;
  yellow: Paint;
  cyan: Paint;
}

const identity: Paint = (text) => text;

function style(open: number, close: number): Paint {
  return (text) => `\x1b[${open}m${text}\x1b[${close}m`;
}

export function colors(enabled: boolean): Colors {
  if (!enabled)
    return { bold: identity, dim: identity, red: identity, green: identity, yellow: identity, cyan: identity };
  return {
    bold: style(1, 22),
    dim: style(2, 22),
    red: style(31, 39),
    green: style(32, 39),
    yellow: style(33, 39),
    cyan: style(36, 39),
  };
}
