import TallyFormats
print("tally")
