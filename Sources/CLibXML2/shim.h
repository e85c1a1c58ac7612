// libxml2 for Swift. xmlversion.h first, then ICU support switched off before any other libxml
// header: with LIBXML_ICU_ENABLED, encoding.h includes ICU's headers, which clash with the ICU
// that Foundation ships (a clean build then fails). Tally needs no ICU from libxml2: documents
// are UTF-8 or another encoding libxml2 converts through iconv.
#ifndef TALLY_CLIBXML2_SHIM_H
#define TALLY_CLIBXML2_SHIM_H

#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#endif
