import type { FormProblem } from "../../components/field-errors";
import { FieldErrorMessage, invalidFieldProps } from "../../components/invalid-field";
import { MAX_ALLOWLIST_ENTRIES } from "@/lib/keys/ip-allowlist";
import styles from "./api-keys.module.css";

interface Props {
  id: string;
  problem: FormProblem | null;
  /** Uncontrolled, read from the form by `name`… */
  name?: string;
  /** …or controlled. */
  value?: string;
  onChange?: (text: string) => void;
}

/** A key's IP allowlist as text, the same when creating a key and when editing its list. */
export function AllowlistField({ id, problem, name, value, onChange }: Props) {
  const helpId = `${id}-help`;
  return (
    <>
      <label htmlFor={id}>IP allowlist (optional)</label>
      <textarea
        id={id}
        name={name}
        rows={3}
        className={styles.allowlist}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        placeholder={"203.0.113.0/24\n2001:db8::/32"}
        value={value}
        onChange={onChange && ((event) => onChange(event.target.value))}
        {...invalidFieldProps(problem, "allowed_ips", helpId)}
      />
      <p id={helpId} className="muted">
        IPv4 or IPv6 addresses and CIDR ranges, separated by commas or line breaks, at most {MAX_ALLOWLIST_ENTRIES}. Requests
        with the key from any other address are refused (403). Empty: any address.
      </p>
      <FieldErrorMessage problem={problem} field="allowed_ips" />
    </>
  );
}
