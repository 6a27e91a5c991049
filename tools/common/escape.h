/* Writing untrusted text (region names, file names) into JSON strings and
 * XML text: quoting, control characters, and invalid UTF-8 (each bad byte
 * becomes U+FFFD), so the output always parses. */
#ifndef SCOPE_ESCAPE_H
#define SCOPE_ESCAPE_H

#include <stdio.h>

/* A JSON string literal, quotes included. */
void escape_json(const char *s, FILE *out);
/* XML character data, also safe inside a double-quoted attribute. */
void escape_xml(const char *s, FILE *out);

#endif
