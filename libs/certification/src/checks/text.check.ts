/**
 * C12 text: what a model will read (manifests, SKILL.md and other Markdown, plain text) scanned
 * for characters a reviewer cannot see (fail) and hidden-instruction markers (review).
 */
import type { Bundle } from '@skillhub/bundle';
import { scanText, type NormalizedSkill, type TextFinding } from '@skillhub/skill-formats';
import { isSkip, parsedSkill, type Check } from '../check';
import { newFinding, type Finding } from '../finding';
import { extensionOf, lineAtIndex, MAX_SCANNED_BYTES, scannedText } from '../scanned-text';

/** Whole files rather than parsed fields: hidden text in a YAML comment or a reference file reaches a model too. */
const TEXT_EXTENSIONS = new Set(['.md', '.markdown', '.txt', '.yaml', '.yml']);

const MARKER = 'hidden-instruction-marker';

export const textCheck: Check = {
  id: 'C12',
  decides: ['no_hidden_text', 'no_review_findings'],
  appliesToManifestOnly: true,
  run(input) {
    let findings: Finding[];
    if (input.manifestOnly) {
      // No files: the fields of the submitted manifest are all the text there is.
      const skill = parsedSkill(input);
      if (isSkip(skill)) return skill;
      findings = fieldFindings(skill);
    } else {
      findings = fileFindings(input.bundle);
    }
    const markers = findings.filter((finding) => finding.rule === `C12.${MARKER}`);
    return {
      findings,
      requirements: {
        no_hidden_text: markers.length === findings.length,
        no_review_findings: markers.length === 0,
      },
    };
  },
};

function fileFindings(bundle: Bundle): Finding[] {
  return bundle.files
    .filter((file) => TEXT_EXTENSIONS.has(extensionOf(file.path)))
    .flatMap((file) => {
      const { text, truncated } = scannedText(file);
      const found = scanText(text).map((textFinding) =>
        textHygieneFinding(textFinding, 'The file', file.path, lineAtIndex(text, textFinding.index)),
      );
      return truncated ? [...found, notFullyScanned(file.path, file.content.length)] : found;
    });
}

function fieldFindings(skill: NormalizedSkill): Finding[] {
  const fields = [
    { label: 'The description', text: skill.description },
    ...skill.tools.map((tool) => ({ label: `The description of tool ${tool.name}`, text: tool.description })),
  ];
  return fields.flatMap(({ label, text }) =>
    scanText(text).map((textFinding) => textHygieneFinding(textFinding, label, skill.manifestPath, null)),
  );
}

function textHygieneFinding(textFinding: TextFinding, label: string, file: string, line: number | null): Finding {
  const hidden = textFinding.severity === 'error';
  return newFinding({
    check: 'C12',
    code: hidden ? 'hidden-unicode' : MARKER,
    severity: hidden ? 'critical' : 'medium',
    file,
    line,
    message: `${label} ${textFinding.message}.`,
    fixHint: hidden
      ? 'Delete the invisible character (retype the text around it); zero-width, bidirectional-control and Unicode tag characters are never accepted.'
      : 'Remove the marker unless the text needs it; if it does, a reviewer can clear this finding.',
  });
}

function notFullyScanned(file: string, size: number): Finding {
  return newFinding({
    check: 'C12',
    code: 'not-fully-scanned',
    severity: 'high',
    file,
    message: `The file is ${size} bytes; only its first ${MAX_SCANNED_BYTES} were scanned for hidden text.`,
    fixHint: `Split the text into files under ${MAX_SCANNED_BYTES} bytes.`,
  });
}
