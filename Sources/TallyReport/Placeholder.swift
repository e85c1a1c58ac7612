import TallyCheck
