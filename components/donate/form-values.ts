import { useRef, useState, type ChangeEvent } from "react";

/** A field's problem as the form shows it: the check's code and its worded message. */
export type FieldProblem = { type: string; message: string };
/** Problems by the field's dotted path ("email", "address.city"); each field has at most one. */
export type FieldProblems = Readonly<Record<string, FieldProblem>>;

type Fields = Record<string, unknown>;
/** A value's paths: its keys, and `key.inner` for each key holding an object (not a list). */
export type Path<V> = {
  [K in keyof V & string]: K | (V[K] extends readonly unknown[] ? never : V[K] extends Fields ? `${K}.${keyof V[K] & string}` : never);
}[keyof V & string];
/** The type of the value at a path. */
export type PathValue<V, P extends string> = P extends `${infer K}.${infer Inner}`
  ? K extends keyof V
    ? Inner extends keyof V[K]
      ? V[K][Inner]
      : never
    : never
  : P extends keyof V
    ? V[P]
    : never;
/** The paths holding text, which inputs are bound to. */
export type TextPath<V> = { [P in Path<V>]: PathValue<V, P> extends string ? P : never }[Path<V>];

function valueAt<V>(values: V, path: string): unknown {
  const [key, inner] = path.split(".", 2);
  const top = (values as Fields)[key];
  return inner === undefined ? top : (top as Fields)[inner];
}

function withValue<V>(values: V, path: string, value: unknown): V {
  const [key, inner] = path.split(".", 2);
  const top = values as Fields;
  return (inner === undefined ? { ...top, [key]: value } : { ...top, [key]: { ...(top[key] as Fields), [inner]: value } }) as V;
}

/** Whether a field, or any field inside it ("ticketOrder" for "ticketOrder.0.name"), has a problem. */
export function hasProblem(problems: FieldProblems, path: string): boolean {
  return path in problems || Object.keys(problems).some((p) => p.startsWith(`${path}.`));
}

/**
 * A form's values and the problems shown next to its fields. Problems are set by `submit`, which
 * runs the check over the values as they are at that moment, and by `setProblem` (the server's
 * word); each stays until its field is edited (`clearProblem`) or the next submit.
 */
export function useFormValues<V extends Fields>(
  initial: () => V,
  check: (values: V) => FieldProblems,
  initialProblems: FieldProblems = {},
) {
  const [values, setValues] = useState(initial);
  // The values as last set, for handlers that run before React renders them (a submit right
  // after a change, the monthly offer's request).
  const latest = useRef(values);
  const [problems, setProblems] = useState<FieldProblems>(initialProblems);

  function setValue<P extends Path<V>>(path: P, value: PathValue<V, P>) {
    latest.current = withValue(latest.current, path, value);
    setValues(latest.current);
  }

  return {
    values,
    problems,
    setValue,
    getValues: () => latest.current,
    setProblem: (path: string, problem: FieldProblem) => setProblems((all) => ({ ...all, [path]: problem })),
    clearProblem: (path: string) =>
      setProblems((all) => {
        if (!(path in all)) return all;
        const { [path]: _gone, ...rest } = all;
        return rest;
      }),
    /** A text input's name, value and change handler; `edited` runs after each change. */
    bind: <P extends TextPath<V>>(path: P, edited?: () => void) => ({
      name: path,
      value: valueAt(values, path) as string,
      onChange: (ev: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
        setValue(path, ev.target.value as PathValue<V, P>);
        edited?.();
      },
    }),
    /** Checks the current values: `valid` gets them when nothing is wrong, `invalid` the problems otherwise. */
    submit: async (valid: (values: V) => unknown, invalid: (problems: FieldProblems) => void) => {
      const current = latest.current;
      const found = check(current);
      setProblems(found);
      if (Object.keys(found).length === 0) await valid(current);
      else invalid(found);
    },
  };
}
